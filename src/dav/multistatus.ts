import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { escapeXml } from '../xml/codec.js';
import { DAV_NS } from '../xml/namespaced.js';

/** Responses use the "D:" prefix for DAV:, so dead properties may use the default namespace freely. */
export const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>';
export const DAV_XMLNS = 'xmlns:D="DAV:"';

/** An empty property element (propname answers, 404 propstats, PROPPATCH results). */
export function emptyPropElement(name: { ns: string; local: string }): string {
  return name.ns === DAV_NS ? `<D:${name.local}/>` : `<${name.local} xmlns="${escapeXml(name.ns)}"/>`;
}

export interface PropStat {
  status: number;
  /** Each a whole property element, already serialised. */
  props: string[];
  /** A DAV: precondition element name, e.g. "cannot-modify-protected-property". */
  error?: string;
}

export interface MultiStatusEntry {
  href: string;
  propstats?: PropStat[];
  status?: number;
}

export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`;
}

export function multistatusXml(entries: MultiStatusEntry[]): string {
  return `${XML_DECL}<D:multistatus ${DAV_XMLNS}>${entries.map(entryXml).join('')}</D:multistatus>`;
}

function entryXml(e: MultiStatusEntry): string {
  const parts = [`<D:response><D:href>${escapeXml(e.href)}</D:href>`];
  if (e.status !== undefined) parts.push(`<D:status>${statusLine(e.status)}</D:status>`);
  for (const ps of e.propstats ?? []) {
    parts.push(`<D:propstat><D:prop>${ps.props.join('')}</D:prop><D:status>${statusLine(ps.status)}</D:status>`);
    if (ps.error) parts.push(`<D:error><D:${ps.error}/></D:error>`);
    parts.push('</D:propstat>');
  }
  parts.push('</D:response>');
  return parts.join('');
}

/** An answer's XML goes out in slices of about this many characters, one event-loop turn each. */
export const MULTISTATUS_SLICE = 64 * 1024;

/**
 * A 207 of `count` entries, made one at a time by `entryAt` (undefined: none for that index) and sent
 * in slices: after each slice it waits a turn of the event loop (other requests are served meanwhile)
 * or, when the client reads slower than it is written, for the socket to drain (memory stays at a
 * slice). A small answer is one piece with its Content-Length; a client that goes away stops the work.
 */
export async function streamMultistatus(
  res: Response,
  count: number,
  entryAt: (index: number) => MultiStatusEntry | undefined,
): Promise<void> {
  let closed = false;
  const onClose = (): void => void (closed = true);
  res.once('close', onClose);
  try {
    let parts: string[] = [XML_DECL, `<D:multistatus ${DAV_XMLNS}>`];
    let size = 0;
    let started = false;
    for (let i = 0; i < count; i++) {
      const entry = entryAt(i);
      if (entry) {
        const xml = entryXml(entry);
        parts.push(xml);
        size += xml.length;
      }
      if (size < MULTISTATUS_SLICE || i === count - 1) continue;
      if (!started) {
        res.status(207).setHeader('Content-Type', 'application/xml; charset=utf-8');
        started = true;
      }
      const flushed = res.write(parts.join(''));
      parts = [];
      size = 0;
      // A drain may come without a turn of the event loop (a socket that takes the bytes at once): both.
      if (!flushed) await drainedOrClosed(res);
      await nextTurn();
      if (closed) return;
    }
    parts.push('</D:multistatus>');
    if (started) res.end(parts.join(''));
    else sendDavXml(res, 207, parts.join(''));
  } finally {
    res.off('close', onClose);
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

export function sendDavXml(res: Response, status: number, xml: string): void {
  res.status(status).setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.end(xml);
}

export function sendMultistatus(res: Response, entries: MultiStatusEntry[]): void {
  sendDavXml(res, 207, multistatusXml(entries));
}

/** An error body carrying a DAV: precondition or postcondition element (RFC 4918 16). */
export function sendDavError(res: Response, status: number, condition: string): void {
  sendDavXml(res, status, `${XML_DECL}<D:error ${DAV_XMLNS}><D:${condition}/></D:error>`);
}
