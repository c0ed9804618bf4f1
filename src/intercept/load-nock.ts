import { createRequire } from 'node:module';
import type { BatchInterceptor } from '@mswjs/interceptors';
import type { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import type { FetchInterceptor } from '@mswjs/interceptors/fetch';
import type Nock from 'nock';

/** The one line interceptCloud answers with when nock is not installed. */
export const NOCK_MISSING =
  'interceptCloud needs the nock package (an optional peer dependency of csp-mock): npm install --save-dev nock';

export type HttpInterceptor = BatchInterceptor<[ClientRequestInterceptor, FetchInterceptor]>;

export interface NockKit {
  nock: typeof Nock;
  /** An interceptor of node:http, node:https and fetch, from the @mswjs/interceptors that nock runs on. */
  httpInterceptor(): HttpInterceptor;
}

function isMissing(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'MODULE_NOT_FOUND';
}

/**
 * Loads nock when interceptCloud is first called, never before (it is an optional peer dependency).
 * `require` rather than `import()`: it works alike from the ES module build, from the CommonJS build,
 * and under a default jest setup, where import() needs --experimental-vm-modules. The interceptors are
 * nock's own copy of @mswjs/interceptors (resolved from nock's folder, which every package manager
 * lets it see), so both share one running instance.
 */
export function loadNock(): NockKit {
  const requireHere = createRequire(import.meta.url);
  let nockPath: string;
  try {
    nockPath = requireHere.resolve('nock');
  } catch (err) {
    if (isMissing(err)) throw new Error(NOCK_MISSING);
    throw err;
  }
  const nock = requireHere(nockPath) as typeof Nock;
  const fromNock = createRequire(nockPath);
  const { BatchInterceptor: Batch } = fromNock('@mswjs/interceptors') as typeof import('@mswjs/interceptors');
  const { ClientRequestInterceptor: ClientRequest } = fromNock(
    '@mswjs/interceptors/ClientRequest',
  ) as typeof import('@mswjs/interceptors/ClientRequest');
  const { FetchInterceptor: Fetch } = fromNock(
    '@mswjs/interceptors/fetch',
  ) as typeof import('@mswjs/interceptors/fetch');
  return {
    nock,
    httpInterceptor: () =>
      new Batch({ name: 'csp-mock-intercept-cloud', interceptors: [new ClientRequest(), new Fetch()] }),
  };
}
