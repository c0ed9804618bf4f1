import { Router, type RequestHandler } from 'express';
import { HttpError } from '../http/errors.js';
import { requestOrigin } from '../http/request-origin.js';
import type { TenantView } from '../http/wire-types.js';

/**
 * The server's tenants as the admin API sees them (src/tenants/ keeps them). Every method throws
 * HttpError for what the caller got wrong: 400 a bad name or option, 404 none, 409 taken, 429 full.
 */
export interface TenantDirectory {
  /** Makes a tenant from an admin body (untrusted: validated whole before anything is made). */
  create(body: unknown, base: string): Promise<TenantView>;
  list(base: string): TenantView[];
  delete(name: string): Promise<void>;
  /** For a request the server did not hand to a tenant: why its /t/<name> path has none. */
  missing(name: string): string;
}

/** /__admin/tenants on the server's own admin API: create (POST), list (GET), delete (DELETE /<name>). */
export function tenantRoutes(directory: TenantDirectory, jsonBody: RequestHandler, publicUrl?: string): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.json({ tenants: directory.list(requestOrigin(req, publicUrl)) });
  });
  router.post('/', jsonBody, async (req, res) => {
    const tenant = await directory.create(req.body, requestOrigin(req, publicUrl));
    res.status(201).location(tenant.url).json(tenant);
  });
  router.delete('/:name', async (req, res) => {
    await directory.delete(req.params['name'] ?? '');
    res.status(204).end();
  });
  return router;
}

/** A tenant's own admin API makes no tenants: they are the server's, created on its /__admin/tenants. */
export const noNestedTenants: RequestHandler = (_req, _res, next) =>
  next(
    new HttpError(
      404,
      "a tenant has no tenants of its own: create them on the server's admin API (/__admin/tenants, without /t/<name>)",
    ),
  );

const TENANT_PATH = /^\/t(?:\/([^/]*))?(?:\/|$)/;

/**
 * The server hands /t/<name>/... to a live tenant before its default app sees the request; a /t/ path
 * that reaches the default app names none, and gets a 404 saying so instead of the service's 401 or 404.
 */
export function unknownTenant(directory: TenantDirectory): RequestHandler {
  return (req, _res, next) => {
    const name = TENANT_PATH.exec(req.path)?.[1];
    if (name === undefined) return next();
    next(new HttpError(404, directory.missing(name)));
  };
}
