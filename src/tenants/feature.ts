import type { RequestHandler } from 'express';
import { resolve } from 'node:path';
import { parseDuration } from '../clock/durations.js';
import { control, PartKey, providedPart, type Channel, type Feature, type MockCore } from '../feature.js';
import { HttpError } from '../http/errors.js';
import type { TenantView } from '../http/wire-types.js';
import type { MockOptions } from '../options.js';
import type { TenantRegistry } from './tenant-registry.js';

const DEFAULT_MAX_TENANTS = 64;
const DEFAULT_TENANT_IDLE_MS = 30 * 60_000;

/** How many tenants a served mock keeps, and for how long nothing may reach one before it is closed. */
export interface TenantSettings {
  /** At most this many at once (default 64; 0: none). */
  max?: number;
  /** A duration ("30m", "2h", or ms; default 30 minutes; 0: never closed for being idle). */
  idle?: string | number;
  /** The real time in ms that idle expiry reads (default Date.now): a test moves it instead of waiting. */
  now?: () => number;
}

const TENANTS = new PartKey<TenantRegistry>("the server's tenants");

/**
 * The server's tenants, on its default mock; elsewhere there is no such resource. A tenant's own admin API makes
 * no tenants: they are the server's.
 */
function tenantsOf(mock: MockCore): TenantRegistry {
  if (mock.mountPath)
    throw new HttpError(
      404,
      "a tenant has no tenants of its own: create them on the server's admin API (/__admin/tenants, without /t/<name>)",
    );
  if (!mock.has(TENANTS)) throw new HttpError(404, 'no admin resource at /__admin/tenants');
  return mock.part(TENANTS);
}

/** Where the tenants' URLs start: the origin the admin call reached (over HTTP only). */
interface Reached {
  base?: string;
}

const baseOf = (mock: MockCore, reached: Reached): string => reached.base ?? mock.options.publicUrl ?? '';

/** GET /__admin/tenants */
const listTenants = control<Reached, { tenants: TenantView[] }>({
  method: 'GET',
  path: '/tenants',
  read: ({ origin }) => ({ base: origin }),
  send: () => ({}),
  run: (mock, reached) => ({ tenants: tenantsOf(mock).list(baseOf(mock, reached)) }),
});

/** POST /__admin/tenants: makes one (201 at its URL); 400 a bad name or option, 409 taken, 429 full. */
const createTenant = control<Reached & { body: unknown }, TenantView>({
  method: 'POST',
  path: '/tenants',
  status: 201,
  location: (tenant) => tenant.url,
  read: ({ origin, body }) => ({ base: origin, body }),
  send: ({ body }) => ({ body }),
  run: (mock, { body, ...reached }) => tenantsOf(mock).create(body, baseOf(mock, reached)),
});

/** DELETE /__admin/tenants/NAME: closes it and drops its state. */
const deleteTenant = control<string, void>({
  method: 'DELETE',
  path: '/tenants/:name',
  status: 204,
  read: ({ params }) => (typeof params['name'] === 'string' ? params['name'] : ''),
  send: (name) => ({ path: `/tenants/${encodeURIComponent(name)}` }),
  run: (mock, name) => tenantsOf(mock).delete(name),
});

/** The tenant calls of connectMock (a served mock's, over its admin API). */
export function tenantControls(channel: Channel): {
  tenants(): Promise<TenantView[]>;
  createTenant(body: Record<string, unknown>): Promise<TenantView>;
  deleteTenant(name: string): Promise<void>;
} {
  return {
    tenants: async () => (await channel.call(listTenants, {})).tenants,
    createTenant: (body) => channel.call(createTenant, { body }),
    deleteTenant: (name) => channel.call(deleteTenant, name),
  };
}

const TENANT_PATH = /^\/t(?:\/([^/]*))?(?:\/|$)/;

/**
 * The server hands /t/<name>/... to a live tenant before its default app sees the request; a /t/ path
 * that reaches the default app names none, and gets a 404 saying so instead of the service's 401 or 404.
 */
function unknownTenant(tenants: TenantRegistry): RequestHandler {
  return (req, _res, next) => {
    const name = TENANT_PATH.exec(req.path)?.[1];
    if (name === undefined) return next();
    next(new HttpError(404, tenants.missing(name)));
  };
}

/** What a tenant takes from the server's options (its body may then set scenario, seed, users, clock, ...). */
const TENANT_INHERITS = [
  'baseDir',
  'users',
  'seed',
  'queueLimit',
  'publicUrl',
  'strict',
  'log',
  'logFormat',
  'verbose',
  'journalSize',
  'journalBodies',
  'contentCacheMiB',
  'scenario',
  'adminToken',
  'switchGraceMs',
  'replayHandler',
  'clock',
] as const satisfies ReadonlyArray<keyof MockOptions>;

/**
 * Tenants: isolated mocks under /t/<name> of a served mock, made over its admin API. Each starts from the
 * server's options (logins, seed, scenario, journal, admin token, Host names, public URL), never its --data,
 * --generate or mode: a tenant emulates, in memory.
 */
export const tenantsFeature: Feature = {
  name: 'tenants',
  controls: [listTenants, createTenant, deleteTenant],
  mount: (mock) => (mock.has(TENANTS) ? { steps: { 'before-admin': unknownTenant(mock.part(TENANTS)) } } : {}),
  // The registry and its routing load with a served mock, not with every client of the controls (connectMock).
  serve: async ({ options, allowedHosts, makeMock }) => {
    const given = (options as { tenants?: TenantSettings }).tenants ?? {};
    const max = given.max ?? DEFAULT_MAX_TENANTS;
    if (!Number.isInteger(max) || max < 0) throw new Error(`tenants.max must be a whole number >= 0, got ${max}`);
    const idleMs = given.idle === undefined ? DEFAULT_TENANT_IDLE_MS : parseDuration(given.idle);
    if (idleMs < 0) throw new Error(`tenants.idle must not be negative, got ${String(given.idle)}`);
    const shared: MockOptions = {};
    for (const key of TENANT_INHERITS) if (options[key] !== undefined) Object.assign(shared, { [key]: options[key] });
    // Fixed now: a tenant made later finds ./scenarios where the server's did.
    shared.baseDir = resolve(options.baseDir ?? process.cwd());
    const log = typeof options.log === 'function' ? options.log : options.log ? console.log : () => undefined;
    const [{ TenantRegistry }, { tenantRouting }] = await Promise.all([
      import('./tenant-registry.js'),
      import('./tenant-routing.js'),
    ]);
    const registry = new TenantRegistry({ ...shared, allowedHosts }, { max, idleMs, now: given.now, log }, makeMock);
    return {
      provide: [providedPart(TENANTS, registry)],
      route: (next) => tenantRouting(registry, next),
      close: () => registry.close(),
    };
  },
};
