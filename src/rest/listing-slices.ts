import type { Request } from 'express';
import { itemFragment, type ItemView, type Page } from '../xml/entities.js';
import type { Links } from '../xml/links.js';
import { pageOf } from './request-params.js';

/**
 * Inferred bound (the interface names none): an answer at X-Cloud-Depth 1 or 2 carries at most this
 * many full entities. A listing asked for more (no ?count, or a larger one) is cut here, and its
 * count/start/total attributes say so (count < total); the client pages on with ?start=&count=.
 * Link-only answers (depth 0) are not cut.
 */
export const MAX_EXPANDED_ITEMS = 5_000;

/** Entities made per turn of the event loop while a listing is prepared. */
export const LISTING_SLICE = 250;

/** The page asked for, cut at MAX_EXPANDED_ITEMS when its items are full entities (depth 1 or 2). */
export function expandedPageOf<T>(req: Request, all: T[], depth: number): Page<T> {
  const page = pageOf(req, all);
  if (depth < 1 || page.items.length <= MAX_EXPANDED_ITEMS) return page;
  return { ...page, items: page.items.slice(0, MAX_EXPANDED_ITEMS) };
}

/**
 * Makes the items' entity fragments ahead of the answer, a slice at a time with a turn of the event
 * loop between slices, so other clients are answered while a big listing is made; the entity built
 * afterwards only joins the fragments.
 */
export async function prepareItems(items: ItemView[], links: Links, shape: 'wrapped' | 'inline'): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    itemFragment(items[i]!, links, shape);
    if (i % LISTING_SLICE === LISTING_SLICE - 1 && i < items.length - 1) await nextTurn();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
