import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { MAX_DEAD_PROPS, type DeadPropChange } from '../domain/dead-properties.js';
import { DomainError } from '../domain/errors.js';
import { HttpError, badRequest } from '../http/errors.js';
import { DAV_NS, clarkName, elementsOf, isDav, serializeElement } from '../xml/namespaced.js';
import { readXmlBody } from './body.js';
import { writeContext } from './conditions.js';
import { isLiveProp } from './live-props.js';
import { emptyPropElement, multistatusAnswer } from './multistatus.js';
import { davHref } from './paths.js';
import { baseOf, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';

/** PROPPATCH: dead properties set/removed in document order, all or nothing (RFC 4918 9.2). */
export async function proppatch(store: CloudStore, req: Request, res: Response): Promise<Answer> {
  const target = targetOf(store, req, res);
  const body = await readXmlBody(req, refuseManyElements);
  const node = target.node;
  if (!node) throw notFound('resource', `nothing at ${req.originalUrl}`);
  if (!body || !isDav(body, 'propertyupdate'))
    throw badRequest('the PROPPATCH body must be a DAV:propertyupdate element');
  const ctx = writeContext(store, req, target.user, target.names);

  const changes: DeadPropChange[] = [];
  const shown = new Map<string, string>(); // clark name -> empty element for the answer
  const refused = new Set<string>();
  for (const instruction of elementsOf(body)) {
    const remove = isDav(instruction, 'remove');
    if (!remove && !isDav(instruction, 'set')) continue;
    for (const prop of elementsOf(instruction).filter((p) => isDav(p, 'prop'))) {
      for (const el of elementsOf(prop)) {
        const name = clarkName(el.ns, el.local);
        shown.set(name, emptyPropElement(el));
        if (el.ns === DAV_NS && isLiveProp(el.local)) refused.add(name);
        else changes.push(remove ? { name, remove: true } : { name, xml: serializeElement(el) });
      }
    }
  }
  const href = davHref(baseOf(req), target.names, node.kind === 'container');
  if (refused.size > 0) {
    const failed = [...shown].filter(([n]) => !refused.has(n)).map(([, e]) => e);
    return multistatusAnswer([
      {
        href,
        propstats: [
          { status: 403, props: [...refused].map((n) => shown.get(n)!), error: 'cannot-modify-protected-property' },
          ...(failed.length > 0 ? [{ status: 424, props: failed }] : []),
        ],
      },
    ]);
  }
  try {
    await store.changeDeadProps(target.user, node.id, changes, ctx);
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'full') throw err;
    // No room for the properties set (RFC 4918 9.2.1: 507 for each), so nothing applied (424 for the rest).
    const setNames = new Set(changes.filter((c) => !('remove' in c)).map((c) => c.name));
    const failed = [...shown].filter(([n]) => !setNames.has(n)).map(([, e]) => e);
    return multistatusAnswer([
      {
        href,
        propstats: [
          { status: 507, props: [...setNames].map((n) => shown.get(n)!) },
          ...(failed.length > 0 ? [{ status: 424, props: failed }] : []),
        ],
      },
    ]);
  }
  return multistatusAnswer([{ href, propstats: [{ status: 200, props: [...shown.values()] }] }]);
}

/** Start tags a PROPPATCH body may hold: every property a node may keep, with values of a few elements each. */
export const MAX_PROPPATCH_ELEMENTS = 10 * MAX_DEAD_PROPS;

/** Refuses a body of more elements than any PROPPATCH within the bounds needs, before the parse (which costs far more). */
function refuseManyElements(text: string): void {
  let elements = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    const next = text.charCodeAt(at + 1);
    // '/', '?', '!': an end tag, a declaration or a comment; anything else opens an element.
    if (next !== 0x2f && next !== 0x3f && next !== 0x21) elements++;
    if (elements > MAX_PROPPATCH_ELEMENTS)
      throw new HttpError(
        413,
        `the PROPPATCH body holds more than ${MAX_PROPPATCH_ELEMENTS} elements; a resource keeps at most ${MAX_DEAD_PROPS} dead properties`,
      );
  }
}
