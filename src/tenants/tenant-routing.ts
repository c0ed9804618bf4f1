import type { RequestListener } from 'node:http';
import { originForm } from '../http/origin-form.js';
import type { TenantRegistry } from './tenant-registry.js';

/** "/t/<name>" then the end, "/" or "?": the name as sent (a tenant's name needs no decoding). */
const TENANT_PREFIX = /^\/t\/([a-z0-9-]{1,40})(?:[/?]|$)/;

/**
 * The server's first step: a request under /t/<name> of a live tenant goes to that tenant's own app
 * (which runs every step the default app does: Host check, admin guard, journal, scenario, emulator);
 * everything else goes to the default mock's app.
 */
export function tenantRouting(tenants: TenantRegistry, defaultApp: RequestListener): RequestListener {
  return (req, res) => {
    // An absolute-form target (as to a proxy) names the tenant in its path too.
    const url = originForm(req.url ?? '/');
    if (url.startsWith('/t/')) {
      const name = TENANT_PREFIX.exec(url)?.[1];
      const app = name === undefined ? undefined : tenants.enter(name, res);
      if (app) return void app(req, res);
    }
    defaultApp(req, res);
  };
}
