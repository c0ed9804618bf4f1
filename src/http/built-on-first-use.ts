import type { RequestHandler } from 'express';

/**
 * A step whose routes are built when the first request reaches it, then kept: a mock that never serves a
 * surface (the admin API, CDMI queues) never pays for its routes, and starts and closes faster.
 * `build` must have no effect but making the routes (nothing subscribed or started).
 */
export function builtOnFirstUse(build: () => RequestHandler): RequestHandler {
  let built: RequestHandler | undefined;
  return (req, res, next) => (built ??= build())(req, res, next);
}
