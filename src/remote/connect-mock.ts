import { resolve } from 'node:path';
import { activeScenario, switchScenario, type ScenarioSummary } from '../admin/core-controls.js';
import { isScenarioPath } from '../scenarios/catalog.js';
import { fetchTrusting } from '../tls/fetch-trusting.js';
import type { StateView } from '../admin/state-view.js';
import type { Channel, Control } from '../feature.js';
import { mockControls, type MockControls } from '../features.js';
import type { JournalEntry, JournalFilter } from '../http/journal.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { tenantControls } from '../tenants/feature.js';
import { tenantBody, type TenantOptions, type TenantView } from './tenant-calls.js';

export type { ScenarioSummary };

export interface ConnectOptions {
  /** The mock's admin token (serve --admin-token), sent as Authorization: Bearer. */
  adminToken?: string;
  /** Relative scenario file paths given to useScenario resolve against it. Default: process.cwd(). */
  baseDir?: string;
  /**
   * For an https URL: CA certificates (PEM) to trust besides Node's roots, such as the local CA of
   * `csp-mock serve --https` (`csp-mock ca --path`). Default: Node's roots and NODE_EXTRA_CA_CERTS.
   */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface StateOptions {
  /** Only this user's tree. */
  user?: string;
}

/** The test-lifecycle surface of a mock running in another process (or on another port). */
export interface RemoteMock extends MockControls {
  readonly url: string;
  /**
   * Switches scenario: a name the mock knows, a path to a scenario file of yours (read here, sent inline with
   * its `extends` merged and its fixtures' bytes), or an inline scenario.
   */
  useScenario(scenario: string | ScenarioDefinition): Promise<ScenarioSummary>;
  /** The active scenario. */
  scenario(): Promise<ScenarioSummary>;
  /** State back to the active scenario's seed; fault counters and the journal cleared. */
  reset(): Promise<void>;
  /** The request journal, oldest first, credentials removed; a filter picks method, path glob, status, since. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Every user's live tree (ids, sizes, tags, metadata). */
  state(options?: StateOptions): Promise<StateView>;
  /** The live state as a scenario file's seed (contents inline; files over `inlineLimit` bytes as fixture references). */
  seed(options?: { inlineLimit?: number }): Promise<ScenarioDefinition>;
  /** The bytes of one live file (for a seed's fixture references). */
  content(id: string): Promise<Buffer>;
  /**
   * A tenant of this served mock (an isolated mock under `<url>/t/<name>`): made with `options` unless one of
   * that name exists, which is returned as it is. Resolves to its own RemoteMock.
   */
  tenant(name: string, options?: TenantOptions): Promise<RemoteMock>;
  /** The served mock's tenants. */
  tenants(): Promise<TenantView[]>;
  /** Closes a tenant and drops its state. */
  deleteTenant(name: string): Promise<void>;
  /** Disconnects: later calls fail. The mock keeps running. */
  close(): Promise<void>;
}

/** `?key=value&...` of the given fields, '' when none. */
function queryOf(fields: object = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) query.set(key, String(value));
  return query.size ? `?${query}` : '';
}

/** Nothing answers at the URL, or the answer is not a csp-mock admin API. */
export class MockConnectionError extends Error {
  override readonly name = 'MockConnectionError';
}

/**
 * The mock answered an admin call with an error: `status`, and `reason`, the mock's own words without the
 * HTTP around them (what a person typing a command wants to read).
 */
export class MockRefusedError extends MockConnectionError {
  readonly status: number;
  readonly reason: string;
  constructor(message: string, status: number, reason: string) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

function isNetworkFailure(err: unknown): boolean {
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

/**
 * The server closed the connection as the request went out on it: mostly a kept-alive connection that it timed
 * out while this process, busy, had not yet seen it close. A read, or a PUT (the admin API's PUTs set a whole
 * value: sent twice, the same end), is sent once more, as browsers do (RFC 9110 9.2.2); a DELETE is not: one that
 * did reach the mock would come back as a 404.
 */
function closedUnderRequest(method: string, err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } }).cause?.code;
  return (
    (method === 'GET' || method === 'PUT') &&
    isNetworkFailure(err) &&
    (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
  );
}

/** The errors of a TLS certificate the client does not accept. */
const UNTRUSTED = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/;

/**
 * Connects to a csp-mock started elsewhere (`csp-mock serve`, another test process, a container):
 * `const mock = connectMock('http://127.0.0.1:8080', { adminToken }); await mock.useScenario('tag-objects-500');`
 */
export function connectMock(url: string, options: ConnectOptions = {}): RemoteMock {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new MockConnectionError(`not a URL: "${url}" (expected e.g. http://127.0.0.1:8080)`);
  }
  const origin = base.href.replace(/\/+$/, '');
  const baseDir = resolve(options.baseDir ?? process.cwd());
  // The global fetch is looked up per call: one a test replaces or spies on later is the one used.
  const send =
    options.ca !== undefined && base.protocol === 'https:'
      ? fetchTrusting(options.ca)
      : (input: string, init: RequestInit) => fetch(input, init);
  let closed = false;

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    if (closed) throw new MockConnectionError(`disconnected from ${origin} (close() was called)`);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.adminToken) headers['Authorization'] = `Bearer ${options.adminToken}`;
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    let res: Response;
    try {
      res = await send(`${origin}/__admin${path}`, init).catch((err: unknown) => {
        if (closedUnderRequest(method, err)) return send(`${origin}/__admin${path}`, init);
        throw err;
      });
    } catch (err) {
      if (isNetworkFailure(err)) {
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        if (cause !== undefined && UNTRUSTED.test(cause))
          throw new MockConnectionError(
            `the mock at ${origin} has a certificate this process does not trust (${cause}): give connectMock the CA (option ca; "csp-mock ca --path" prints its file) or set NODE_EXTRA_CA_CERTS`,
          );
        throw new MockConnectionError(
          `no csp-mock answers at ${origin}${cause ? ` (${cause})` : ''}: start one with "csp-mock serve" or give --url / CSP_MOCK_URL`,
        );
      }
      throw err;
    }
    if (res.ok) return res;
    const text = (await res.text()).trim();
    if (res.status === 401) {
      throw new MockConnectionError(
        options.adminToken
          ? `the mock at ${origin} refused the admin token${text ? `: ${text}` : ''}`
          : `the mock at ${origin} requires an admin token: give --admin-token or CSP_MOCK_ADMIN_TOKEN`,
      );
    }
    if (
      res.status === 404 &&
      !/^(\d{3} )?(no (admin resource|live file|tenant|user)|change( \d+ of \d+)? refused|a tenant has no tenants)/.test(
        text,
      )
    )
      throw new MockConnectionError(`${origin} is not a csp-mock (no admin API at ${origin}/__admin)`);
    const reason = text.replace(/^\d{3} /, '').replace(/^[A-Z]+ \/__admin\S*: /, '') || `status ${res.status}`;
    throw new MockRefusedError(
      `${method} /__admin${path} answered ${res.status}${text ? `: ${text}` : ''}`,
      res.status,
      reason,
    );
  }

  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await (await call(method, path, body)).json()) as T;

  // Every control of the handle, as its admin route.
  const channel: Channel = {
    inProcess: false,
    call: async <In, Out>(control: Control<In, Out>, input: In): Promise<Out> => {
      const sent = control.send(input);
      let res: Response;
      try {
        res = await call(control.method, `${sent.path ?? control.path}${queryOf(sent.query)}`, sent.body);
      } catch (err) {
        const refusal = err instanceof MockRefusedError ? control.refusal?.(err.status, err.reason) : undefined;
        throw refusal ?? err;
      }
      const parsed: unknown = control.status === 204 ? undefined : await res.json();
      return control.receive ? control.receive(parsed) : (parsed as Out);
    },
  };

  const tenants = tenantControls(channel);
  return {
    ...mockControls(channel),
    url: origin,
    useScenario: async (scenario) => {
      if (typeof scenario !== 'string' || !isScenarioPath(scenario)) return channel.call(switchScenario, scenario);
      // A path is read here, not by the mock (which may run elsewhere, and takes only names over HTTP).
      const { scenarioDocument } = await import('./scenario-document.js');
      const document = await scenarioDocument(scenario, baseDir);
      try {
        return await channel.call(switchScenario, document);
      } catch (err) {
        if (err instanceof MockConnectionError && / answered 413/.test(err.message))
          throw new MockConnectionError(
            `${scenario} with its files inline is larger than the mock takes over HTTP: put it in the mock's own scenarios/ folder and use it by name`,
          );
        throw err;
      }
    },
    scenario: () => channel.call(activeScenario, undefined),
    state: async (stateOptions = {}) => {
      const view = await json<StateView>('GET', '/state');
      if (stateOptions.user === undefined) return view;
      const one = view.users[stateOptions.user];
      if (!one)
        throw new MockConnectionError(`no user "${stateOptions.user}" (users: ${Object.keys(view.users).join(', ')})`);
      return { ...view, users: { [stateOptions.user]: one } };
    },
    seed: (seedOptions = {}) =>
      json<ScenarioDefinition>(
        'GET',
        `/state?format=seed${seedOptions.inlineLimit !== undefined ? `&inlineLimit=${seedOptions.inlineLimit}` : ''}`,
      ),
    tenant: async (name, tenantOptions = {}) => {
      try {
        await tenants.createTenant(await tenantBody(name, tenantOptions, baseDir));
      } catch (err) {
        if (!(err instanceof MockRefusedError && err.status === 409)) throw err;
      }
      return connectMock(`${origin}/t/${encodeURIComponent(name)}`, options);
    },
    tenants: tenants.tenants,
    deleteTenant: tenants.deleteTenant,
    content: async (id) => Buffer.from(await (await call('GET', `/content/${encodeURIComponent(id)}`)).arrayBuffer()),
    close: async () => {
      closed = true;
    },
  };
}
