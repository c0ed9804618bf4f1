import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * The base the client reached, for absolute links: the public URL when one is set, else the
 * request's scheme (https only when the socket is TLS, as express's req.protocol without "trust
 * proxy") and Host; then the path a tenant is mounted under ("/t/<name>"), if any.
 */
export function requestOrigin(req: IncomingMessage, publicUrl: string | undefined, mountPath = ''): string {
  if (publicUrl !== undefined) return publicUrl + mountPath;
  const scheme = (req.socket as Partial<TLSSocket> | undefined)?.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}${mountPath}`;
}
