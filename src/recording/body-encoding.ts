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

/** Every empty body: one zero-length Buffer (nothing can write into it) instead of one per exchange and side. */
export const EMPTY_BODY = Buffer.alloc(0);

/** The bytes of an inline stored body (text or base64); undefined for a sidecar, which SidecarReader reads. */
export function inlineBytes(body: StoredBody | undefined): Buffer | undefined {
  if (!body) return EMPTY_BODY;
  if ('text' in body && typeof body.text === 'string') return Buffer.from(body.text, 'utf8');
  if ('base64' in body && typeof body.base64 === 'string') return Buffer.from(body.base64, 'base64');
  return undefined;
}

/** The bytes of a body known to be inline. */
export function decodeInlineBody(body: StoredBody | undefined): Buffer {
  const bytes = inlineBytes(body);
  if (!bytes) throw new Error('a body in a sidecar is not inline');
  return bytes;
}
