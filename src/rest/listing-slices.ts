import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import type { ChildListing } from '../domain/child-listing.js';
import { SEND_NOW, type Answer } from '../http/answer.js';
import { emptyFileList, fileListFrame, listingItemXml } from '../xml/entities.js';
import { ListingTag, type ItemView } from '../xml/entity-tags.js';
import { MEDIA, depthOf, entityTexts, linksOf, pageBoundsOf } from './request-params.js';
import { itemView } from './views.js';

/**
 * Inferred bound (the interface names none): an answer at X-Cloud-Depth 1 or 2 carries at most this
 * many full entities. A listing asked for more (no ?count, or a larger one) is cut here, and its
 * count/start/total attributes say so (count < total); the client pages on with ?start=&count=.
 * Link-only answers (depth 0) are not cut.
 */
export const MAX_EXPANDED_ITEMS = 5_000;

/** Pages up to this many full entities keep their text for the next listing (see itemFragment). */
export const KEPT_ENTITIES = 500;

/**
 * A file-list of `members` (a snapshot: a container's children in listing order, `ordered`, or the
 * objects carrying a tag), paged by ?start=&count=, filtered by name, with its ETag (304 on If-None-Match).
 * It is written while it is made, a page of members at a time (sendAnswer's pieces): the first bytes leave
 * before the last member is read, memory stays at a page, and other clients are answered meanwhile.
 * Without a filter, nothing before the first page needs the whole order: the page's ranks follow from
 * ?start=&count=, its members are chosen alone (ChildListing.range), and a links-only tag is made from
 * the members' digest. As before, containers come first in the text, then files.
 */
export async function fileListAnswer(
  store: CloudStore,
  req: Request,
  res: Response,
  members: ChildListing,
  { ordered, filter }: { ordered: boolean; filter?: ((name: string) => boolean) | undefined },
): Promise<Answer> {
  const depth = depthOf(req);
  const links = linksOf(res);
  const shape = depth >= 1 ? 'wrapped' : 'link';
  const asked = pageBoundsOf(req);
  const count = depth >= 1 ? Math.min(asked.count ?? MAX_EXPANDED_ITEMS, MAX_EXPANDED_ITEMS) : asked.count;
  // A filter's page lies where the matches fall in listing order: that needs the whole order.
  const order = filter ? await members.ordered() : undefined;
  const page = pageRange(members.length, order, filter, asked.start, count);
  const chosen = (n: NodeRecord): boolean => !filter || filter(n.name);
  // Full entities are at most MAX_EXPANDED_ITEMS: made once, for the tag and the text alike.
  const views =
    depth >= 1
      ? (order ? pageItems(order, page, chosen) : await members.range(page.from, page.to)).map((n) =>
          itemView(store, n, depth),
        )
      : undefined;
  const tag = new ListingTag(links, shape, asked.start, page.total);
  if (views) tag.add(views);
  else if (!order) tag.addMembers(members.digest);
  else for await (const part of members.pages(page.from, page.to)) tag.add(linkItems(part, chosen));
  const headers = { ETag: tag.value(page.count), 'Content-Type': `${MEDIA.fileList}; charset=utf-8` };
  if (page.count === 0) return { status: 200, headers, body: emptyFileList(asked.start, page.total) };
  const frame = fileListFrame(page.count, asked.start, page.total);
  const keep = page.count <= KEPT_ENTITIES;
  const texts = entityTexts(res);
  // Members in listing order have their containers first already; others take a pass per kind.
  const kinds = ordered ? [undefined] : (['container', 'file'] as const);
  const wanted = (n: NodeRecord, kind: NodeRecord['kind'] | undefined): boolean =>
    (kind === undefined || n.kind === kind) && chosen(n);
  // Full entities are in memory already: their text is made at once.
  function* entities(views: ItemView[]): Generator<string> {
    yield frame.head;
    for (const kind of kinds)
      for (const view of views) if (wanted(view.node, kind)) yield listingItemXml(view, links, shape, keep, texts);
    yield frame.tail;
  }
  async function* memberLinks(): AsyncGenerator<string | typeof SEND_NOW> {
    yield frame.head;
    // When the first page is still to be chosen (a linear pass), the status and head go first, and other
    // clients get a turn between the pass that made the tag and that one.
    if (members.orderedNow === undefined) yield SEND_NOW;
    for (const kind of kinds) {
      for await (const part of members.pages(page.from, page.to))
        for (const item of linkItems(part, (n) => wanted(n, kind)))
          yield listingItemXml(item, links, shape, keep, texts);
    }
    yield frame.tail;
  }
  return { status: 200, headers, body: { pieces: views ? entities(views) : memberLinks() } };
}

interface PageRange {
  /** Index in the members of the page's first member, and one past its last. */
  from: number;
  to: number;
  count: number;
  total: number;
}

/**
 * Where the page lies in the members: without a filter at once from their number, with one in one
 * pass over them in listing order that counts the matches.
 */
function pageRange(
  length: number,
  members: readonly NodeRecord[] | undefined,
  filter: ((name: string) => boolean) | undefined,
  start: number,
  count: number | undefined,
): PageRange {
  const last = count === undefined ? Number.POSITIVE_INFINITY : start + count;
  if (!filter || !members) {
    const from = Math.min(start, length);
    const to = Math.min(last, length);
    return { from, to, count: to - from, total: length };
  }
  let total = 0;
  let from = members.length;
  let to = members.length;
  for (let i = 0; i < members.length; i++) {
    if (!filter(members[i]!.name)) continue;
    if (total === start) from = i;
    total++;
    if (total === last) to = i + 1;
  }
  return { from, to, count: Math.max(0, Math.min(last, total) - start), total };
}

function pageItems(members: readonly NodeRecord[], page: PageRange, chosen: (n: NodeRecord) => boolean): NodeRecord[] {
  const out: NodeRecord[] = [];
  for (let i = page.from; i < page.to; i++) if (chosen(members[i]!)) out.push(members[i]!);
  return out;
}

/** Depth-0 items: a link needs no byte count. */
const linkItems = (nodes: readonly NodeRecord[], chosen: (n: NodeRecord) => boolean): ItemView[] =>
  nodes.filter(chosen).map((node) => ({ node, bytes: 0 }));
