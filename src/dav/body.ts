import type { Request } from 'express';
import { badRequest } from '../http/errors.js';
import { readBody } from '../http/read-body.js';
import { XmlSyntaxError } from '../xml/codec.js';
import { parseNamespacedXml, type XmlElement } from '../xml/namespaced.js';

/** PROPFIND, PROPPATCH and LOCK bodies are small; 1 MiB is far above any real one. */
const XML_BODY_LIMIT = 1024 * 1024;

/** True when the request announces a body (a length above 0, or chunked). */
export function hasBody(req: Request): boolean {
  const length = Number(req.headers['content-length'] ?? '0');
  return length > 0 || /chunked/i.test(String(req.headers['transfer-encoding'] ?? ''));
}

/**
 * The request's XML body as a namespace-resolved tree; undefined when empty; 400 when malformed.
 * `precheck` sees the text first and may refuse it before the parse (which costs far more).
 */
export async function readXmlBody(req: Request, precheck?: (text: string) => void): Promise<XmlElement | undefined> {
  const body = await readBody(req as AsyncIterable<Buffer>, XML_BODY_LIMIT);
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return undefined;
  precheck?.(text);
  try {
    return parseNamespacedXml(text);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw badRequest(err.message);
    throw err;
  }
}
