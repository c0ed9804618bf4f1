import type { HeaderMap } from '../recording/format.js';
import type { HarEntry, HarNameValue } from './har-types.js';

/** A HAR header list as a header map: lower-case names, repeats as arrays, HTTP/2 pseudo-headers (":path") left out. */
export function headerMapOf(headers: readonly HarNameValue[] | undefined): HeaderMap {
  const out: HeaderMap = {};
  for (const { name, value } of headers ?? []) {
    if (name.startsWith(':')) continue;
    const key = name.toLowerCase();
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}

/** The bytes of a HAR text field: base64 when its encoding says so, else UTF-8. */
const textBytes = (text: string, encoding: string | undefined): Buffer =>
  Buffer.from(text, encoding?.toLowerCase() === 'base64' ? 'base64' : 'utf8');

/**
 * The request body a HAR entry carries: postData's text, else its form params encoded as the browser
 * sent them. HAR 1.2 holds request bodies as text only: a browser writes a binary upload decoded as
 * UTF-8, its bytes lost, and `lost` says so (the text's size is not the body size it states).
 */
export function requestBodyOf(entry: HarEntry): { body: Buffer; lost: boolean } {
  const post = entry.request.postData;
  if (!post) return { body: Buffer.alloc(0), lost: false };
  if (typeof post.text === 'string') {
    const encoding = post._encoding ?? post.encoding;
    const body = textBytes(post.text, encoding);
    const stated = entry.request.bodySize;
    const lost = encoding === undefined && Number.isInteger(stated) && stated >= 0 && stated !== body.length;
    return { body, lost };
  }
  const params = (post.params ?? []).map((p): [string, string] => [p.name, p.value ?? '']);
  return { body: Buffer.from(new URLSearchParams(params).toString(), 'utf8'), lost: false };
}

/**
 * The answer's body: content.text, decoded (HAR keeps what the browser saw, after Content-Encoding).
 * `missing` when the answer had a body the HAR did not keep (a browser leaves some out).
 */
export function responseBodyOf(entry: HarEntry): { body: Buffer; missing: boolean } {
  const content = entry.response.content;
  if (content && typeof content.text === 'string')
    return { body: textBytes(content.text, content.encoding), missing: false };
  return { body: Buffer.alloc(0), missing: (content?.size ?? 0) > 0 };
}
