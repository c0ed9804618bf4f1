import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import type { ActiveLock, LockDepth, LockScope } from '../domain/locks.js';
import { HttpError, badRequest } from '../http/errors.js';
import { elementsOf, isDav, serializeChildren } from '../xml/namespaced.js';
import { readXmlBody } from './body.js';
import { checkIfHeader, preconditionFailed, writeContext } from './conditions.js';
import { lockDiscoveryXml } from './lock-xml.js';
import { DAV_XMLNS, XML_DECL, davXmlAnswer } from './multistatus.js';
import { baseOf, leafName, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';

/** Inferred: leases last an hour by default and at most a week; "Infinite" is kept as asked. */
const DEFAULT_TIMEOUT = 3600;
const MAX_TIMEOUT = 7 * 24 * 3600;
/** A lock's owner (RFC 4918 14.17: who took it, usually a name or a URL) is kept and echoed with the lock. */
export const MAX_OWNER_CHARS = 4096;

/**
 * LOCK: a new exclusive or shared write lock (body lockinfo), or a refresh (no body, If with the
 * token). A lock on an unmapped URL creates an empty file and answers 201 (RFC 4918 7.3, 9.10).
 */
export async function lock(store: CloudStore, req: Request, res: Response): Promise<Answer> {
  const target = targetOf(store, req, res);
  const { user } = target;
  const body = await readXmlBody(req);
  const timeout = parseTimeout(req.get('timeout'));
  const base = baseOf(req);

  if (!body) {
    if (!target.node) throw notFound('resource', `nothing at ${req.originalUrl}`);
    const tokens = checkIfHeader(store, req, user, target.node);
    const held = store.locks.covering(target.node.id).find((l) => tokens.has(l.token));
    if (!held) throw preconditionFailed('If', 'a lock refresh needs an If header with a lock token of this resource');
    return lockAnswer(store, base, store.locks.refresh(held.token, timeout), 200);
  }

  if (!isDav(body, 'lockinfo')) throw badRequest('the LOCK body must be a DAV:lockinfo element');
  const kids = elementsOf(body);
  const scopeEl = kids.find((k) => isDav(k, 'lockscope'));
  const scope = scopeEl && elementsOf(scopeEl)[0]?.local;
  if (scope !== 'exclusive' && scope !== 'shared') throw badRequest('lockscope must be exclusive or shared');
  const typeEl = kids.find((k) => isDav(k, 'locktype'));
  if (!typeEl || !elementsOf(typeEl).some((k) => isDav(k, 'write'))) throw badRequest('only write locks exist');
  const ownerEl = kids.find((k) => isDav(k, 'owner'));
  const ownerXml = ownerEl ? serializeChildren(ownerEl) : '';
  if (ownerXml.length > MAX_OWNER_CHARS)
    throw badRequest(
      `the lock owner is longer than ${MAX_OWNER_CHARS} characters; it is stored and shown with the lock`,
    );
  const depth = parseLockDepth(req.get('depth'));

  if (!target.node && !target.parent) throw new HttpError(409, 'the parent collection does not exist');
  const ctx = writeContext(store, req, user, target.names);
  // Conflicts are checked before an unmapped URL gets its empty file, in the same transaction.
  const { lock: granted, created } = await store.lock(
    user,
    target.node ? { nodeId: target.node.id } : { parentId: target.parent!.id, name: leafName(target) },
    { scope: scope as LockScope, depth, ownerXml, timeout },
    ctx,
  );
  return lockAnswer(store, base, granted, created ? 201 : 200);
}

/** UNLOCK with Lock-Token: <token>; 204, or 409 when the token is not a lock on this resource. */
export function unlock(store: CloudStore, req: Request, res: Response): Answer {
  const target = targetOf(store, req, res);
  if (!target.node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  const header = req.get('lock-token');
  // RFC 4918 wants "<token>"; some clients (the npm webdav client) send the bare token.
  const match = /^\s*<?([^<>\s]+)>?\s*$/.exec(header ?? '');
  if (!match) throw badRequest('UNLOCK needs a Lock-Token header of the form <token>');
  store.locks.release(match[1]!, target.node.id);
  return { status: 204 };
}

function lockAnswer(store: CloudStore, base: string, granted: ActiveLock, status: number): Answer {
  const answer = davXmlAnswer(
    status,
    `${XML_DECL}<D:prop ${DAV_XMLNS}>${lockDiscoveryXml(store, base, [granted])}</D:prop>`,
  );
  return { ...answer, headers: { ...answer.headers, 'Lock-Token': `<${granted.token}>` } };
}

function parseLockDepth(header: string | undefined): LockDepth {
  const value = (header ?? 'infinity').trim().toLowerCase();
  if (value === '0' || value === 'infinity') return value;
  throw badRequest('LOCK Depth must be 0 or infinity');
}

/** "Timeout: Second-600, Infinite": the first form understood wins. */
function parseTimeout(header: string | undefined): number | null {
  for (const part of (header ?? '').split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return null;
    const match = /^second-(\d+)$/i.exec(value);
    if (match) return Math.min(Math.max(Number(match[1]), 1), MAX_TIMEOUT);
  }
  return DEFAULT_TIMEOUT;
}
