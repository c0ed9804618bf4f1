import type { RequestListener, ServerResponse } from 'node:http';
import { formatDuration } from '../clock/durations.js';
import type { MakeMock, ServedMock } from '../feature.js';
import { HttpError } from '../http/errors.js';
import type { TenantView } from '../http/wire-types.js';
import type { MockOptions } from '../options.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import { checkTenantName, parseTenantRequest, TENANT_NAME, TENANT_NAME_RULE } from './tenant-request.js';

export interface TenantLimits {
  /** How many tenants may live at once (0: none). */
  max: number;
  /** A tenant nothing has reached for this long is closed (0: never). */
  idleMs: number;
  /** Real time in ms, for idle expiry (tests pass their own). Default Date.now. */
  now?: () => number;
  log: (line: string) => void;
}

/** One live tenant: a whole mock, and when it was last used. */
interface Tenant {
  readonly name: string;
  readonly mock: ServedMock;
  readonly created: number;
  lastUsed: number;
  /** Requests in flight: a tenant is not idle while one is (a long download, the inspector's event stream). */
  readonly active: Set<ServerResponse>;
}

/**
 * The served mock's tenants: each a whole mock (createApp under /t/<name>) made on demand, kept in memory,
 * bounded in number, closed when deleted, idle too long, or when the server closes.
 */
export class TenantRegistry {
  readonly #base: MockOptions;
  readonly #limits: Required<TenantLimits>;
  readonly #make: MakeMock;
  readonly #tenants = new Map<string, Tenant>();
  /** Names being made: taken (a second create is 409) and counted against the limit. */
  readonly #making = new Set<string>();
  /** Started with the first tenant: a server that never makes one runs no timer for them. */
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;

  /**
   * `base`: the options every tenant starts from (the server's, less what only the default mock has);
   * `make`: how a tenant's mock is made (createApp).
   */
  constructor(base: MockOptions, limits: TenantLimits, make: MakeMock) {
    this.#base = base;
    this.#make = make;
    this.#limits = { ...limits, now: limits.now ?? (() => Date.now()) };
  }

  /** Real timers; what expires is decided by sweep() against now(), which tests drive themselves. */
  #startSweeping(): void {
    const { idleMs } = this.#limits;
    if (this.#sweeper || idleMs <= 0) return;
    this.#sweeper = setInterval(() => void this.sweep(), Math.min(Math.max(idleMs / 4, 1000), 60_000));
    this.#sweeper.unref();
  }

  async create(body: unknown, base: string): Promise<TenantView> {
    const request = parseTenantRequest(body);
    const { name } = request;
    if (this.#closed) throw new HttpError(503, 'the server is closing');
    if (this.#tenants.has(name) || this.#making.has(name))
      throw new HttpError(409, `a tenant named "${name}" exists (${base}/t/${name}); delete it first to make it anew`);
    const { max } = this.#limits;
    if (this.#tenants.size + this.#making.size >= max)
      throw new HttpError(
        429,
        `${max === 0 ? 'tenants are turned off' : `the server has its ${max} tenants`} (--max-tenants ${max}): ` +
          'delete one (DELETE /__admin/tenants/NAME) or start the server with a higher --max-tenants',
      );
    this.#making.add(name);
    try {
      const mock = await this.#make(
        { ...this.#base, ...request.options },
        { mountPath: `/t/${name}`, scenarioTrust: request.scenarioGiven ? 'http' : 'user' },
      );
      const now = this.#limits.now();
      const tenant: Tenant = { name, mock, created: now, lastUsed: now, active: new Set() };
      if (this.#closed) {
        await mock.close();
        throw new HttpError(503, 'the server is closing');
      }
      this.#tenants.set(name, tenant);
      this.#startSweeping();
      this.#limits.log(`tenant: ${name} created (${base}/t/${name}, scenario ${mock.scenario.name})`);
      return this.#view(tenant, base);
    } catch (err) {
      if (err instanceof ScenarioError) throw new HttpError(400, err.message);
      throw err;
    } finally {
      this.#making.delete(name);
    }
  }

  list(base: string): TenantView[] {
    void this.sweep();
    return [...this.#tenants.values()].map((t) => this.#view(t, base));
  }

  async delete(name: string): Promise<void> {
    checkTenantName(name);
    const tenant = this.#tenants.get(name);
    if (!tenant) throw new HttpError(404, this.missing(name));
    await this.#close(tenant, 'deleted');
  }

  missing(name: string): string {
    if (!TENANT_NAME.test(name)) return `no tenant there: a tenant's name is ${TENANT_NAME_RULE}`;
    const idle = this.#limits.idleMs;
    return (
      `no tenant "${name}" on this server: create it with POST /__admin/tenants {"name": "${name}"}` +
      (idle > 0 ? ` (a tenant nothing reaches for ${formatDuration(idle)} is closed)` : '')
    );
  }

  /**
   * The app of the live tenant `name`, for a request whose answer is `res` (it keeps the tenant in use until
   * the answer ends); undefined when there is none (one past its idle time is closed here).
   */
  enter(name: string, res: ServerResponse): RequestListener | undefined {
    const tenant = this.#tenants.get(name);
    if (!tenant || this.#isExpired(tenant)) {
      if (tenant) void this.#expire(tenant);
      return undefined;
    }
    tenant.lastUsed = this.#limits.now();
    tenant.active.add(res);
    res.once('close', () => {
      tenant.active.delete(res);
      tenant.lastUsed = this.#limits.now();
    });
    return tenant.mock.app;
  }

  /** The live tenant's mock (for in-process callers: its store, its clock). */
  mockOf(name: string): ServedMock | undefined {
    return this.#tenants.get(name)?.mock;
  }

  /**
   * Closes every tenant idle for longer than the limit; resolves once they are closed (the timer calls it;
   * so may a test, after moving now()).
   */
  async sweep(): Promise<void> {
    await Promise.all([...this.#tenants.values()].map((tenant) => this.#expire(tenant)));
  }

  /** Closes every tenant; later creates are refused (the server is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweeper) clearInterval(this.#sweeper);
    await Promise.all([...this.#tenants.values()].map((t) => this.#close(t, 'closed with the server')));
  }

  #isExpired(tenant: Tenant): boolean {
    const { idleMs } = this.#limits;
    return idleMs > 0 && tenant.active.size === 0 && this.#limits.now() - tenant.lastUsed > idleMs;
  }

  /** Closes the tenant if it is past its idle time (out of the map at once; its store released when this resolves). */
  async #expire(tenant: Tenant): Promise<void> {
    if (this.#isExpired(tenant)) await this.#close(tenant, `closed after ${formatDuration(this.#limits.idleMs)} idle`);
  }

  /** Out of the map first (new requests find none), its open answers ended, then its store released. */
  async #close(tenant: Tenant, why: string): Promise<void> {
    if (this.#tenants.get(tenant.name) !== tenant) return;
    this.#tenants.delete(tenant.name);
    for (const res of tenant.active) res.destroy();
    try {
      await tenant.mock.close();
    } catch (err) {
      this.#limits.log(`tenant: ${tenant.name}: closing failed: ${(err as Error).message}`);
    }
    this.#limits.log(`tenant: ${tenant.name} ${why}`);
  }

  #view(tenant: Tenant, base: string): TenantView {
    const { idleMs } = this.#limits;
    return {
      name: tenant.name,
      url: `${base}/t/${tenant.name}`,
      scenario: tenant.mock.scenario.name,
      created: new Date(tenant.created).toISOString(),
      lastUsed: new Date(tenant.lastUsed).toISOString(),
      expires: idleMs > 0 ? new Date(tenant.lastUsed + idleMs).toISOString() : null,
    };
  }
}
