import type { Request } from 'express';
import type { CloudStore, WriteContext } from '../domain/cloud-store.js';
import { HttpError } from '../http/errors.js';
import { contentEtag } from '../http/content-answer.js';
import type { NodeRecord } from '../domain/model.js';
import { parseIfHeader, submittedTokens, type IfCondition } from './if-header.js';
import { davNames, namesOfUri } from './paths.js';
import { baseOf, resolveNames, type DavTarget } from './target.js';

/** The conditional header whose evaluation failed: the 412 error body names it. */
export type ConditionalHeader = 'If' | 'If-Match' | 'If-None-Match' | 'Overwrite';

export class PreconditionFailed extends HttpError {
  readonly header: ConditionalHeader;
  constructor(header: ConditionalHeader, why: string) {
    super(412, `precondition failed: ${why}`);
    this.header = header;
  }
}

export const preconditionFailed = (header: ConditionalHeader, why: string): PreconditionFailed =>
  new PreconditionFailed(header, why);

/** A node's ETag in the WebDAV view: files share REST's content ETag; collections have none. */
export function davEtag(node: NodeRecord): string | undefined {
  return node.kind === 'file' ? contentEtag(node) : undefined;
}

const weakless = (etag: string): string => etag.replace(/^W\//, '');

/**
 * Evaluates the If header (RFC 4918 10.4): true when any list holds for its resource (untagged lists
 * for the request URI). False is 412. Returns the lock tokens the client submitted.
 */
export function checkIfHeader(
  store: CloudStore,
  req: Request,
  user: string,
  node: NodeRecord | undefined,
): Set<string> {
  const header = req.get('if');
  if (header === undefined || header.trim() === '') return new Set();
  const lists = parseIfHeader(header);
  const requestTarget = resolveNames(store, user, davNames(req.path));
  const holds = (c: IfCondition, { node: subject, parent }: Subject): boolean => {
    let match: boolean;
    if (c.token !== undefined) {
      // An unmapped URL is covered by its parent's depth-infinity locks (a PUT of a new member).
      const locks = subject ? store.locks.covering(subject.id) : parent ? store.locks.coveringNewMember(parent.id) : [];
      match = locks.some((l) => l.token === c.token);
    } else {
      const etag = subject ? davEtag(subject) : undefined;
      match = etag !== undefined && weakless(etag) === weakless(c.etag ?? '');
    }
    return c.not ? !match : match;
  };
  const ok = lists.some((list) => {
    const subject =
      list.resource === undefined
        ? { node, parent: requestTarget.parent }
        : resourceOf(store, req, user, list.resource);
    return list.conditions.every((c) => holds(c, subject));
  });
  if (!ok) throw preconditionFailed('If', 'no list of the If header matches the resource state');
  return submittedTokens(lists);
}

type Subject = Pick<DavTarget, 'node' | 'parent'>;

function resourceOf(store: CloudStore, req: Request, user: string, uri: string): Subject {
  try {
    return resolveNames(store, user, namesOfUri(uri, baseOf(req), req.headers.host));
  } catch {
    return { node: undefined, parent: undefined }; // a tag for a resource elsewhere matches nothing here
  }
}

/** If-Match / If-None-Match on a write (GET and HEAD get them from `send`). */
function checkEntityTags(req: Request, node: NodeRecord | undefined): void {
  const etag = node ? (davEtag(node) ?? '"collection"') : undefined;
  const list = (h: string): string[] => h.split(',').map((t) => weakless(t.trim()));
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined) {
    const wanted = list(ifMatch);
    if (!etag || !(wanted.includes('*') || wanted.includes(weakless(etag))))
      throw preconditionFailed('If-Match', 'If-Match');
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && etag) {
    const unwanted = list(ifNoneMatch);
    if (unwanted.includes('*') || unwanted.includes(weakless(etag)))
      throw preconditionFailed('If-None-Match', 'If-None-Match');
  }
}

/**
 * The request's conditions for a write to `names`: the If header (and with `entityTags` If-Match and
 * If-None-Match) checked now, to refuse before a body streams, and again by the store at commit
 * against the node there then. The store checks the locks, with the tokens submitted.
 */
export function writeContext(
  store: CloudStore,
  req: Request,
  user: string,
  names: string[],
  options: { entityTags?: boolean } = {},
): WriteContext {
  const check = (): Set<string> => {
    const node = store.resolvePath(user, names);
    const tokens = checkIfHeader(store, req, user, node);
    if (options.entityTags) checkEntityTags(req, node);
    return tokens;
  };
  return { tokens: check(), precondition: () => void check() };
}
