/** An HTTP answer that ends a request: status, a plain-text message, extra headers, and whether to close. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Send the whole response with Connection: close, then close the socket (as the real service did). */
  readonly closeConnection: boolean;

  constructor(status: number, message: string, options: { headers?: Record<string, string>; close?: boolean } = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
    this.closeConnection = options.close ?? false;
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (realm: string, message = 'authentication required'): HttpError =>
  new HttpError(401, message, { headers: { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` } });
export const methodNotAllowed = (allow: string[]): HttpError =>
  new HttpError(405, `method not allowed; allowed: ${allow.join(', ')}`, { headers: { Allow: allow.join(', ') } });
export const unsupportedMediaType = (got: string | undefined, accepted: string[]): HttpError =>
  new HttpError(415, `unsupported media type "${got ?? ''}"; accepted: ${accepted.join(', ')}`);
