import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * The one writer of a text/plain answer (every error, a replay miss): `${status} ${message}\n` in UTF-8
 * with its length. Once the headers are out no answer can be given any more: the connection is cut.
 */
export function sendPlainError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: OutgoingHttpHeaders = {},
): void {
  sendPlainText(res, status, `${status} ${message}\n`, headers);
}

/** As sendPlainError, for a text that is already whole (a replay miss's report). */
export function sendPlainText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': body.length });
  res.end(body);
}
