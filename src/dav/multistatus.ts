import { STATUS_CODES } from 'node:http';
import type { Answer } from '../http/answer.js';
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

function multistatusXml(entries: MultiStatusEntry[]): string {
  return `${multistatusHead()}${entries.map(entryXml).join('')}${multistatusTail()}`;
}

/** The start of a 207's body, up to its first response; multistatusTail ends it. */
export const multistatusHead = (): string => `${XML_DECL}<D:multistatus ${DAV_XMLNS}>`;
export const multistatusTail = (): string => '</D:multistatus>';

/** One D:response, escaped here: the one writer of response elements. */
export function entryXml(e: MultiStatusEntry): string {
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

export const DAV_XML_TYPE = 'application/xml; charset=utf-8';

export function davXmlAnswer(status: number, xml: string): Answer {
  return { status, headers: { 'Content-Type': DAV_XML_TYPE }, body: xml };
}

export const multistatusAnswer = (entries: MultiStatusEntry[]): Answer => davXmlAnswer(207, multistatusXml(entries));

/** An error body carrying a DAV: precondition or postcondition element, or any other content of D:error (RFC 4918 16). */
export const davErrorAnswer = (status: number, content: string): Answer =>
  davXmlAnswer(status, `${XML_DECL}<D:error ${DAV_XMLNS}>${content}</D:error>`);
