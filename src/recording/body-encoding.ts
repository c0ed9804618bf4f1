import type { StoredBody } from './format.js';

/** UTF-8 text with no control characters other than tab, CR and LF: stored readable; else base64. */
export function isText(body: Buffer): boolean {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(body.toString('latin1'))) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/** An in-memory body as stored; undefined for an empty one. */
export function encodeBody(body: Buffer): StoredBody | undefined {
  if (body.length === 0) return undefined;
  return isText(body) ? { text: body.toString('utf8') } : { base64: body.toString('base64') };
}

/** The bytes of an inline stored body (text or base64; sidecars are read by SidecarReader). */
export function decodeInlineBody(body: StoredBody | undefined): Buffer {
  if (!body) return Buffer.alloc(0);
  if ('text' in body) return Buffer.from(body.text, 'utf8');
  if ('base64' in body) return Buffer.from(body.base64, 'base64');
  throw new Error(`body in sidecar ${body.file} is not inline`);
}
