import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import type { Answer } from '../http/answer.js';
import { containerEntityFrame, listingItemXml } from '../xml/entities.js';
import { ListingTag } from '../xml/entity-tags.js';
import { KEPT_ENTITIES, MAX_EXPANDED_ITEMS } from './listing-slices.js';
import { MEDIA, entityTexts, linksOf, pageBoundsOf } from './request-params.js';
import { containerView } from './views.js';

/**
 * A container's entity at X-Cloud-Depth 2: its children inline in the contents link (a page of at most
 * MAX_EXPANDED_ITEMS, ?start=&count=), each with its metadata-item links. A child may carry any number
 * of metadata keys, so the entity can be far bigger than its item count suggests: it is written while
 * it is made (sendAnswer's pieces), the container's own fields, then a child at a time, from one snapshot of
 * the container. Its ETag is made from what the text depends on (ListingTag), not by hashing the text.
 */
export async function depthTwoContainerAnswer(
  store: CloudStore,
  req: Request,
  res: Response,
  node: NodeRecord,
): Promise<Answer> {
  const links = linksOf(res);
  const members = store.listing(node.owner, node.id);
  const { start, count } = pageBoundsOf(req);
  const cut = Math.min(count ?? MAX_EXPANDED_ITEMS, MAX_EXPANDED_ITEMS);
  const items = await members.range(start, start + cut);
  const view = containerView(store, node, { items: [...items], start, total: members.length });
  const children = view.contents!.items;
  const tag = new ListingTag(links, 'inline', start, members.length);
  tag.add([view]);
  tag.add(children);
  const headers = { ETag: tag.value(children.length), 'Content-Type': `${MEDIA.container}; charset=utf-8` };
  const keep = children.length <= KEPT_ENTITIES;
  const texts = entityTexts(res);
  function* pieces(): Generator<string> {
    const frame = containerEntityFrame(view, links);
    yield frame.head;
    for (const child of children) yield listingItemXml(child, links, 'inline', keep, texts);
    yield frame.tail;
  }
  return { status: 200, headers, body: { pieces: pieces() } };
}
