import type { ErrorRequestHandler, Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import { DomainError } from '../domain/errors.js';
import { userOf } from '../http/auth.js';
import { escapeXml } from '../xml/codec.js';
import { PreconditionFailed } from './conditions.js';
import { davErrorAnswer } from './multistatus.js';
import { sendAnswer } from '../http/answer.js';
import { davHref } from './paths.js';
import { baseOf } from './target.js';
import { storeOf } from '../http/service-context.js';

/** Our namespace for 412 details: RFC 4918 defines no precondition element for a failed conditional header. */
export const CSP_MOCK_NS = 'urn:csp-mock';

/**
 * 423 and 412 answers of the WebDAV view carry an RFC 4918 16 error body: DAV:lock-token-submitted or
 * DAV:no-conflicting-lock with the href of the lock's root; a 412 names the conditional header that
 * failed. Every other error goes on to the one error middleware (text/plain).
 */
export function davErrorBodies(): ErrorRequestHandler {
  return (err, req, res, next) => {
    const xml = errorXml(storeOf(res), req, res, err);
    if (xml === undefined || res.headersSent) return next(err);
    return sendAnswer(res, davErrorAnswer(xml.status, xml.body));
  };
}

function errorXml(
  store: CloudStore,
  req: Request,
  res: Response,
  err: unknown,
): { status: number; body: string } | undefined {
  if (err instanceof PreconditionFailed) {
    return {
      status: 412,
      body: `<M:failed-precondition xmlns:M="${CSP_MOCK_NS}">${escapeXml(err.header)}</M:failed-precondition>`,
    };
  }
  if (!(err instanceof DomainError) || err.code !== 'locked') return undefined;
  const condition = err.lockedBy?.reason === 'conflicting-lock' ? 'no-conflicting-lock' : 'lock-token-submitted';
  const href = err.lockedBy ? lockRootHref(store, req, res, err.lockedBy.rootId) : undefined;
  return {
    status: 423,
    body:
      href === undefined ? `<D:${condition}/>` : `<D:${condition}><D:href>${escapeXml(href)}</D:href></D:${condition}>`,
  };
}

/** The lock root's address in the caller's tree; nothing for a node of another user. */
function lockRootHref(store: CloudStore, req: Request, res: Response, rootId: string): string | undefined {
  const node = store.tree.node(rootId);
  if (!node || node.owner !== userOf(res)) return undefined;
  return davHref(baseOf(req), store.tree.pathNames(rootId), node.kind === 'container');
}
