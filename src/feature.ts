import type { RequestHandler, Router } from 'express';
import type { RequestListener, Server } from 'node:http';
import type { MockClock } from './clock/mock-clock.js';
import type { ServiceSurface } from './emulator.js';
import type { CloudStore } from './domain/cloud-store.js';
import type { HttpError } from './http/errors.js';
import type { RequestJournal } from './http/journal.js';
import type { MockOptions, ResolvedOptions } from './options.js';
import type { ScenarioTrust } from './scenarios/load.js';
import type { ScenarioRuntime } from './scenarios/scenario-runtime.js';
import type { ScenarioSection } from './scenarios/section.js';
import type { ResolvedScenario } from './scenarios/types.js';
import type { HttpsEndpoint } from './tls/server-identity.js';

/** What an admin request carries into a control, parsed but unchecked (it came over HTTP). */
export interface AdminInput {
  query: Record<string, unknown>;
  body: unknown;
  params: Record<string, unknown>;
  /** The origin the client reached this mock at (`--public-url`, else its Host), its mount path included. */
  origin: string;
  /** The journal's newest seq when the call reached the mock (before the admin routes were loaded, on a first call). */
  journalMark: number;
}

/** A control's request as a client sends it: a path under /__admin (default the control's), a query, a JSON body. */
export interface SentInput {
  path?: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/**
 * One control, written once: its admin route (`method`, `path`, how a request is read), how a client sends it
 * (connectMock), and what it does to a mock (run here for the route and for every in-process handle: createApp,
 * startMock, interceptCloud, the Playwright fixture). Methods, not function fields: a list of controls holds
 * each with its own input and output types.
 */
export interface Control<In, Out> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /__admin, express syntax (`/tenants/:name`). */
  readonly path: string;
  /** The route's status: 200 with the output as JSON (default), 201 (also JSON) or 204 (no body). */
  readonly status?: 200 | 201 | 204;
  /** The Location of what a 201 made. */
  location?(out: Out): string;
  /** A long poll: the route holds one of `slots` answers open at once (half for one source), named `what`. */
  readonly held?: { slots: number; what: string };
  /** The input of an admin request (untrusted): throws HttpError (400) naming the field. */
  read(request: AdminInput): In;
  /** The same input as a client's request. */
  send(input: In): SentInput;
  /** Does it to `mock`; `signal` aborts when the admin request's client goes away. */
  run(mock: MockCore, input: In, signal: AbortSignal): Out | Promise<Out>;
  /** The HTTP answer of an error `run` or `read` threw that is the caller's (else the error middleware's 500). */
  answerOf?(err: unknown): HttpError | undefined;
  /** Over HTTP: the error an in-process call would throw for a refusal (`text`: the answer less its status). */
  refusal?(status: number, text: string): Error | undefined;
  /** Over HTTP: the parsed JSON answer as `Out` (default: as parsed). */
  receive?(json: unknown): Out;
}

/** Any control, for lists of them. */
export type AnyControl = Control<unknown, unknown>;

/** How a handle reaches its mock: in this process, or over its admin API. */
export interface Channel {
  /** True in this process (createApp, startMock, interceptCloud); false through connectMock. */
  readonly inProcess: boolean;
  call<In, Out>(control: Control<In, Out>, input: In): Promise<Out>;
}

/** A typed name for a feature's own part of a mock (what its mount made: the second device, ...). */
export class PartKey<T> {
  declare readonly type: T;
  constructor(readonly name: string) {}
}

/** One mock as its features see it: the parts every mock has, and each feature's own. */
export interface MockCore {
  readonly store: CloudStore;
  readonly journal: RequestJournal;
  readonly clock: MockClock;
  readonly scenarios: ScenarioRuntime;
  readonly options: ResolvedOptions;
  /** A tenant's "/t/<name>"; "" for a server's default mock or an unserved one. */
  readonly mountPath: string;
  /** The mock's one reset (state, fault counters, journal, a replay's cursor). */
  reset(): Promise<void>;
  /** A feature's part, provided by its mount (or its server); throws when there is none. */
  part<T>(key: PartKey<T>): T;
  has(key: PartKey<unknown>): boolean;
  provide<T>(key: PartKey<T>, value: T): void;
}

/** A part given to a mock from outside it (the server's tenants, to its default mock). */
export interface ProvidedPart {
  give(mock: MockCore): void;
}

export const providedPart = <T>(key: PartKey<T>, value: T): ProvidedPart => ({
  give: (mock) => mock.provide(key, value),
});

/** A mock made by a server for a feature of the server's (a tenant): its app, and what to show of it. */
export interface ServedMock {
  app: RequestListener;
  readonly store: CloudStore;
  readonly scenario: ResolvedScenario;
  close(): Promise<void>;
}

/** How a server's feature makes a mock of its own: createApp, under a mount path. */
export type MakeMock = (
  options: MockOptions,
  how: { mountPath: string; scenarioTrust: ScenarioTrust },
) => Promise<ServedMock>;

/** What a served mock (startMock, csp-mock serve) tells its features before it makes its default mock. */
export interface ServeContext {
  /** startMock's options (the features' own among them, e.g. `tenants`, `https`). */
  options: MockOptions;
  /** The address it binds (127.0.0.1 by default). */
  host: string;
  /** The Host names the server answers to. */
  allowedHosts: string[];
  makeMock: MakeMock;
}

/** A server a served mock listens with; on startMock's `port` unless it names its own. */
export interface ServedListener {
  server: Server;
  scheme: 'http' | 'https';
  port?: number | undefined;
}

/**
 * A feature in a served mock: what it gives the default mock, how it routes requests, how it listens, how
 * it closes.
 */
export interface ServedFeature {
  provide?: readonly ProvidedPart[];
  /** Wraps the server's request listener (the default mock's app, or the previous feature's routing). */
  route?(next: RequestListener): RequestListener;
  /**
   * The servers to listen with in place of one plain HTTP server (`plain` makes that one): TLS's. The first
   * gives the mock's `url`.
   */
  listeners?(plain: () => Server): ServedListener[];
  /** Once they listen (the listeners' addresses, in order): where it serves HTTPS (RunningMock's `https`). */
  https?(listening: ReadonlyArray<{ url: string; port: number }>): HttpsEndpoint;
  /** When the server closes, before the default mock. */
  close?(): Promise<void>;
}

/** Where in the app's request order a feature's step runs (app.ts numbers them). */
export type StepPlace =
  /** after CORS, before the admin API: a request not for the service or the admin API */
  | 'before-admin'
  /** after the journal and admission, before faults: the request is counted and under the active scenario */
  | 'admitted';

/** A feature in one mock: its request steps and its lifecycle hooks. */
export interface MountedFeature {
  steps?: Partial<Record<StepPlace, RequestHandler>>;
  /** After every switch and reset (the active scenario may have changed). */
  switched?(): void;
  /** When the mock closes, before its store is released. */
  close?(): void | Promise<void>;
}

/**
 * A feature declares in one place what it adds to a mock; the hubs (app.ts, the admin router, the handles of
 * createApp, startMock, interceptCloud and connectMock) iterate over the list in src/features.ts.
 */
export interface Feature {
  readonly name: string;
  /** Its admin routes and the calls of its handle. */
  readonly controls?: readonly AnyControl[];
  /** Its parts of a scenario: the loader checks and merges each with the section's own rules. */
  readonly scenario?: readonly ScenarioSection[];
  /** A surface of the service it adds (under the service's Basic auth, loaded on its first request). */
  readonly service?: ServiceSurface;
  /** Admin routes that are no control's (a download, an event stream), under /__admin. */
  routes?(mock: MockCore, jsonBody: RequestHandler): Router | undefined;
  /** Assembles it into one mock, once, when the mock is made. */
  mount?(mock: MockCore): MountedFeature;
  /** Assembles it into a served mock (startMock), once, before the default mock is made. */
  serve?(server: ServeContext): ServedFeature | Promise<ServedFeature>;
}

/** The control with its types checked where it is written (and nowhere else). */
export function control<In, Out>(definition: Control<In, Out>): Control<In, Out> {
  return definition;
}

/** Runs controls on a mock in this process: the channel of every in-process handle. */
export function inProcessChannel(mock: MockCore): Channel {
  const never = new AbortController().signal;
  return {
    inProcess: true,
    call: async (c, input) => c.run(mock, input, never),
  };
}
