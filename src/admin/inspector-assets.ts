import { Router, type NextFunction, type Response } from 'express';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../http/errors.js';

/**
 * The built page (`npm run build`: its TypeScript compiled, its HTML, CSS and icon copied), found from the
 * package root two levels above this module, whether it runs from src/ (tests) or dist/.
 */
const PAGE_DIR = fileURLToPath(new URL('../../dist/admin/inspector-page', import.meta.url));

/** The page loads only its own files and talks only to this mock; nothing runs inline. */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const MODULE_NAME = /^[a-z][a-z0-9-]*\.js$/;

function sendAsset(res: Response, next: NextFunction, root: string, file: string, type: string): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type(type).sendFile(file, { root, dotfiles: 'deny', cacheControl: false }, (err?: Error) => {
    // Only a build that skipped the page gets here; say so without quoting a local path.
    if (err && !res.headersSent)
      next(new HttpError(404, `inspector file ${file} not found (was the page built? npm run build)`));
  });
}

/**
 * The inspector's shell at GET /__admin/: static files that hold no state of the mock, so a browser can
 * open them without the admin token; the page then asks for the token, which every data call carries.
 */
export function inspectorAssets(): Router {
  const router = Router();
  router.get('/', (req, res, next) => {
    // Relative asset URLs need the trailing slash: /__admin -> /__admin/.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) {
      res.redirect(301, `${req.baseUrl}/`);
      return;
    }
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    sendAsset(res, next, PAGE_DIR, 'index.html', 'text/html; charset=utf-8');
  });
  router.get('/inspector/page/favicon.svg', (_req, res, next) =>
    sendAsset(res, next, PAGE_DIR, 'favicon.svg', 'image/svg+xml'),
  );
  router.get('/inspector/page/inspector.css', (_req, res, next) =>
    sendAsset(res, next, PAGE_DIR, 'inspector.css', 'text/css; charset=utf-8'),
  );
  router.get('/inspector/page/:module', (req, res, next) => {
    const name = req.params['module'] ?? '';
    if (!MODULE_NAME.test(name)) return next();
    sendAsset(res, next, PAGE_DIR, name, 'text/javascript; charset=utf-8');
  });
  return router;
}
