import type { RequestHandler } from 'express';

/** An absolute-form request target (RFC 9112 §3.2.2): "http://host:port/path?query". */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The origin form ("/path?query") of a request target; one already in origin form is returned as it is. */
export function originForm(target: string): string {
  if (!ABSOLUTE_FORM.test(target)) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

/**
 * A client may send its request line in absolute form, as to a proxy (`GET http://127.0.0.1:8080/v2
 * HTTP/1.1`); a server must accept it (RFC 9112 §3.2.2). From here on every step (journal, faults,
 * recorder, replay) sees the origin form, as it would for any other client.
 */
export const originFormUrl: RequestHandler = (req, _res, next) => {
  if (ABSOLUTE_FORM.test(req.url)) req.originalUrl = req.url = originForm(req.url);
  next();
};
