import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import { CHILD_PAGE, pagesOf } from '../domain/tree-queries.js';
import { SlicedAnswer } from '../http/sliced-answer.js';
import { ListingTag, fileListFrame, itemFragment, listingItemXml, type ItemView, type Page } from '../xml/entities.js';
import type { Links } from '../xml/links.js';
import { MEDIA, depthOf, linksOf, pageBoundsOf } from './request-params.js';
import { itemView } from './views.js';
import { notModified } from '../http/not-modified.js';

/**
 * Inferred bound (the interface names none): an answer at X-Cloud-Depth 1 or 2 carries at most this
 * many full entities. A listing asked for more (no ?count, or a larger one) is cut here, and its
 * count/start/total attributes say so (count < total); the client pages on with ?start=&count=.
 * Link-only answers (depth 0) are not cut.
 */
export const MAX_EXPANDED_ITEMS = 5_000;

/** Entities made per turn of the event loop while a depth-2 container entity is prepared. */
export const LISTING_SLICE = 250;

/** Pages up to this many full entities keep their text for the next listing (see itemFragment). */
const KEPT_ENTITIES = 500;

/** The page asked for, cut at MAX_EXPANDED_ITEMS when its items are full entities (depth 1 or 2). */
export function expandedPageOf<T>(req: Request, all: readonly T[], depth: number): Page<T> {
  const { start, count } = pageBoundsOf(req);
  const cut = depth >= 1 ? Math.min(count ?? MAX_EXPANDED_ITEMS, MAX_EXPANDED_ITEMS) : count;
  return { items: all.slice(start, cut === undefined ? undefined : start + cut), start, total: all.length };
}

/**
 * Makes the items' entity fragments ahead of the answer, a slice at a time with a turn of the event
 * loop between slices, so other clients are answered while a big entity is made; the entity built
 * afterwards only joins the fragments.
 */
export async function prepareItems(items: ItemView[], links: Links, shape: 'wrapped' | 'inline'): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    itemFragment(items[i]!, links, shape);
    if (i % LISTING_SLICE === LISTING_SLICE - 1 && i < items.length - 1) await nextTurn();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A file-list of `members` (a snapshot: a container's children in listing order, `ordered`, or the
 * objects carrying a tag), paged by ?start=&count=, filtered by name, with its ETag (304 on If-None-Match).
 * It is written while it is made, a page of members at a time (SlicedAnswer): the first bytes leave
 * before the last member is read, memory stays at a page, and other clients are answered meanwhile.
 * As before, containers come first in the text, then files.
 */
export async function sendFileList(
  store: CloudStore,
  req: Request,
  res: Response,
  members: readonly NodeRecord[],
  { ordered, filter }: { ordered: boolean; filter?: ((name: string) => boolean) | undefined },
): Promise<void> {
  const depth = depthOf(req);
  const links = linksOf(res);
  const shape = depth >= 1 ? 'wrapped' : 'link';
  const asked = pageBoundsOf(req);
  const count = depth >= 1 ? Math.min(asked.count ?? MAX_EXPANDED_ITEMS, MAX_EXPANDED_ITEMS) : asked.count;
  const page = pageRange(members, filter, asked.start, count);
  const chosen = (n: NodeRecord): boolean => !filter || filter(n.name);
  // Full entities are at most MAX_EXPANDED_ITEMS: made once, for the tag and the text alike.
  const views = depth >= 1 ? pageItems(members, page, chosen).map((n) => itemView(store, n, depth)) : undefined;
  const tag = new ListingTag(links, shape, asked.start, page.total);
  if (views) tag.add(views);
  else {
    for (let i = page.from; i < page.to; i += CHILD_PAGE) {
      tag.add(linkItems(members.slice(i, Math.min(page.to, i + CHILD_PAGE)), chosen));
      if (i + CHILD_PAGE < page.to) await nextTurn();
    }
  }
  res.setHeader('ETag', tag.value(page.count));
  if (notModified(res)) {
    res.status(304).end();
    return;
  }
  const type = `${MEDIA.fileList}; charset=utf-8`;
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'Content-Type': type }).end();
    return;
  }
  const frame = fileListFrame(page.count, asked.start, page.total);
  const out = new SlicedAnswer(res, 200, { 'Content-Type': type });
  if (page.count === 0) return out.end(frame.empty);
  if (!(await out.write(frame.head))) return;
  const keep = page.count <= KEPT_ENTITIES;
  // Members in listing order have their containers first already; others take a pass per kind.
  for (const kind of ordered ? [undefined] : (['container', 'file'] as const)) {
    const wanted = (n: NodeRecord): boolean => (kind === undefined || n.kind === kind) && chosen(n);
    if (views) {
      for (const view of views) {
        if (wanted(view.node) && !(await out.write(listingItemXml(view, links, shape, keep)))) return;
      }
      continue;
    }
    for (const part of pagesOf(members, page.from, page.to)) {
      for (const item of linkItems(part, wanted))
        if (!(await out.write(listingItemXml(item, links, shape, keep)))) return;
    }
  }
  out.end(frame.tail);
}

interface PageRange {
  /** Index in the members of the page's first member, and one past its last. */
  from: number;
  to: number;
  count: number;
  total: number;
}

/** Where the page lies in the members: without a filter at once, with one in one pass that counts the matches. */
function pageRange(
  members: readonly NodeRecord[],
  filter: ((name: string) => boolean) | undefined,
  start: number,
  count: number | undefined,
): PageRange {
  const last = count === undefined ? Number.POSITIVE_INFINITY : start + count;
  if (!filter) {
    const from = Math.min(start, members.length);
    const to = Math.min(last, members.length);
    return { from, to, count: to - from, total: members.length };
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
