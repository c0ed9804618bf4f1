import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * The origin the client reached, for absolute links: the public URL when one is set, else the
 * request's scheme (https only when the socket is TLS, as express's req.protocol without "trust
 * proxy") and Host.
 */
export function requestOrigin(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  const scheme = (req.socket as Partial<TLSSocket> | undefined)?.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}
