import type { Request, Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import { badRequest } from '../http/errors.js';
import type { Answer } from '../http/answer.js';
import { escapeXml } from '../xml/codec.js';
import { davHref } from './paths.js';

/** Rows on one page of a collection shown to a browser; the page links to the next and previous ones. */
export const HTML_LISTING_PAGE = 1_000;

/** Browsers ask for text/html first; WebDAV clients, curl and no Accept at all keep the plain listing. */
function prefersHtml(req: Request): boolean {
  return req.accepts(['text/plain', 'text/html']) === 'text/html';
}

/**
 * GET of a collection: its members in listing order (containers first, then by name ignoring case),
 * from one snapshot, written a page of members at a time. A browser gets an HTML page of at most
 * HTML_LISTING_PAGE rows (`?start=N` for the others); everyone else every member's name, one a line.
 */
export function collectionListingAnswer(
  store: CloudStore,
  req: Request,
  res: Response,
  names: string[],
  collection: NodeRecord,
): Answer {
  res.vary('Accept');
  const html = prefersHtml(req);
  const start = html ? startOf(req) : 0;
  const members = store.listing(collection.owner, collection.id);
  if (!html) {
    const lines = async function* (): AsyncGenerator<string> {
      for await (const page of members.pages())
        yield page.map((c) => (c.kind === 'container' ? `${c.name}/\n` : `${c.name}\n`)).join('');
    };
    return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: { pieces: lines() } };
  }
  const base = req.baseUrl;
  const self = davHref(base, names, true);
  const end = Math.max(start, Math.min(members.length, start + HTML_LISTING_PAGE));
  const rows = async function* (): AsyncGenerator<string> {
    yield pageHead(base, names, self);
    for await (const page of members.pages(start, end)) {
      yield page
        .map((m) => {
          const href = escapeXml(`${self}${encodeURIComponent(m.name)}${m.kind === 'container' ? '/' : ''}`);
          const label = escapeXml(m.kind === 'container' ? `${m.name}/` : m.name);
          return `<tr><td><a href="${href}">${label}</a></td><td>${size(m)}</td><td>${modified(m)}</td></tr>\n`;
        })
        .join('');
    }
    yield pageTail(members.length, start, end);
  };
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    // Names are client data: the page may show them, never run them (sandboxed, like everything served beside /__admin).
    'Content-Security-Policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'",
  };
  return { status: 200, headers, body: { pieces: rows() } };
}

function startOf(req: Request): number {
  const raw = req.query['start'];
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < 0)
    throw badRequest('start must be a non-negative integer');
  return n;
}

function pageHead(base: string, names: string[], self: string): string {
  const title = escapeXml(self);
  const parent =
    names.length > 0
      ? `<p><a href="${escapeXml(davHref(base, names.slice(0, -1), true))}" rel="up">Parent collection</a></p>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>Index of ${title}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}th,td{padding:.25rem 1.25rem .25rem 0;text-align:left}td:nth-child(2){text-align:right}</style></head>
<body><h1>Index of ${title}</h1>${parent}
<table><thead><tr><th>Name</th><th>Size</th><th>Modified</th></tr></thead><tbody>
`;
}

/** The end of the page: where it is among the members, and links to the pages around it. */
function pageTail(total: number, start: number, end: number): string {
  if (total === 0) return '</tbody></table><p>This collection is empty.</p></body></html>\n';
  const links: string[] = [];
  if (start > 0) links.push(`<a href="?start=${Math.max(0, start - HTML_LISTING_PAGE)}" rel="prev">Previous page</a>`);
  if (end < total) links.push(`<a href="?start=${end}" rel="next">Next page</a>`);
  const shown =
    end > start ? `Members ${start + 1}-${end} of ${total}.` : `No members from ${start + 1} on (${total} in all).`;
  const where = start === 0 && end === total ? '' : `<p>${shown} ${links.join(' ')}</p>`;
  return `</tbody></table>${where}</body></html>\n`;
}

function size(node: NodeRecord): string {
  if (node.kind === 'container') return '';
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = node.bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

const modified = (node: NodeRecord): string =>
  new Date(node.modified * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
