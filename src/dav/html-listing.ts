import type { Request, Response } from 'express';
import type { NodeRecord } from '../domain/model.js';
import { escapeXml } from '../xml/codec.js';
import { davHref } from './paths.js';

/** Browsers ask for text/html first; WebDAV clients, curl and no Accept at all keep the plain listing. */
export function prefersHtml(req: Request): boolean {
  return req.accepts(['text/plain', 'text/html']) === 'text/html';
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

/** A collection as a page a person can browse: each member a link, its size and modified time, and the parent. */
export function sendHtmlListing(req: Request, res: Response, names: string[], members: NodeRecord[]): void {
  const base = req.baseUrl;
  const title = escapeXml(davHref(base, names, true));
  const sorted = [...members].sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'container' ? -1 : 1,
  );
  const rows = sorted.map((m) => {
    const href = escapeXml(davHref(base, [...names, m.name], m.kind === 'container'));
    const label = escapeXml(m.kind === 'container' ? `${m.name}/` : m.name);
    return `<tr><td><a href="${href}">${label}</a></td><td>${size(m)}</td><td>${modified(m)}</td></tr>`;
  });
  const parent =
    names.length > 0
      ? `<p><a href="${escapeXml(davHref(base, names.slice(0, -1), true))}" rel="up">Parent collection</a></p>`
      : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>Index of ${title}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}th,td{padding:.25rem 1.25rem .25rem 0;text-align:left}td:nth-child(2){text-align:right}</style></head>
<body><h1>Index of ${title}</h1>${parent}
<table><thead><tr><th>Name</th><th>Size</th><th>Modified</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${sorted.length === 0 ? '<p>This collection is empty.</p>' : ''}</body></html>
`;
  // Names are client data: the page may show them, never run them (sandboxed, like everything served beside /__admin).
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
  res.type('text/html; charset=utf-8').send(html);
}
