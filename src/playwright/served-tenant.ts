import { randomBytes } from 'node:crypto';
import { connectMock, type RemoteMock } from '../remote/connect-mock.js';
import type { TenantOptions } from '../remote/tenant-calls.js';

/** A worker's tenant of a served mock: its controls (a RemoteMock at the tenant's URL) and its name. */
export interface ServedTenant extends RemoteMock {
  /** The tenant's name on the served mock (`pw-<workerIndex>-<hex>`); `url` ends in `/t/<name>`. */
  readonly name: string;
}

/** A tenant made for one worker, and how to delete it. */
export interface WorkerTenant {
  tenant: ServedTenant;
  /** Deletes the tenant (its state, journal, scenario) from the served mock. */
  remove(): Promise<void>;
}

/**
 * The served mock's URL: the option when a project sets it, else CSP_MOCK_URL; a clear error when neither.
 */
export function servedMockUrl(option: string | undefined): string {
  const url = option ?? process.env['CSP_MOCK_URL'];
  if (url === undefined || url === '')
    throw new Error(
      'cspMockServer needs a served mock: start one ("npx csp-mock serve") and set cspMockServerUrl in the ' +
        "project's use: { ... } or CSP_MOCK_URL in the environment",
    );
  return url;
}

/**
 * Makes a tenant of the mock served at `url` for worker `workerIndex`, with `options` (scenario, seed, users...).
 * The name carries random hex, so a restarted worker, or a second run against the same server, never meets a
 * tenant left by another. The admin token, when the served mock has one, comes from CSP_MOCK_ADMIN_TOKEN.
 */
export async function openWorkerTenant(
  url: string,
  workerIndex: number,
  options: TenantOptions,
): Promise<WorkerTenant> {
  const adminToken = process.env['CSP_MOCK_ADMIN_TOKEN'] || undefined;
  const server = connectMock(url, { adminToken });
  const name = `pw-${workerIndex}-${randomBytes(4).toString('hex')}`;
  const remote = await server.tenant(name, options);
  return {
    tenant: Object.assign(remote, { name }),
    remove: async () => {
      await remote.close();
      await server.deleteTenant(name);
      await server.close();
    },
  };
}
