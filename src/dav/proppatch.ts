import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import type { DeadPropChange } from '../domain/dead-properties.js';
import { badRequest } from '../http/errors.js';
import { DAV_NS, clarkName, elementsOf, isDav, serializeElement } from '../xml/namespaced.js';
import { readXmlBody } from './body.js';
import { writeContext } from './conditions.js';
import { isLiveProp } from './live-props.js';
import { emptyPropElement, sendMultistatus } from './multistatus.js';
import { davHref } from './paths.js';
import { baseOf, targetOf } from './target.js';
import { notFound } from '../domain/errors.js';

/** PROPPATCH: dead properties set/removed in document order, all or nothing (RFC 4918 9.2). */
export async function proppatch(store: CloudStore, req: Request, res: Response): Promise<void> {
  const target = targetOf(store, req, res);
  const body = await readXmlBody(req);
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
    sendMultistatus(res, [
      {
        href,
        propstats: [
          { status: 403, props: [...refused].map((n) => shown.get(n)!), error: 'cannot-modify-protected-property' },
          ...(failed.length > 0 ? [{ status: 424, props: failed }] : []),
        ],
      },
    ]);
    return;
  }
  await store.changeDeadProps(target.user, node.id, changes, ctx);
  sendMultistatus(res, [{ href, propstats: [{ status: 200, props: [...shown.values()] }] }]);
}
