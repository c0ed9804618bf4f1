import type { RequestHandler } from 'express';

/**
 * A step whose routes are loaded and built when the first request reaches it, then kept: a mock that never
 * serves a surface (the admin API, CDMI queues, WebDAV) neither loads nor builds its routes, and starts sooner.
 * `build` must have no effect but loading and making the routes (nothing subscribed or started); if it fails,
 * every request to the surface gets its error.
 */
export function builtOnFirstUse(build: () => Promise<RequestHandler>): RequestHandler {
  let built: RequestHandler | undefined;
  let building: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    if (built) return built(req, res, next);
    building ??= build().then((routes) => (built = routes));
    building.then((routes) => routes(req, res, next)).catch(next);
  };
}
