import type { Interceptor } from 'nock';
import { createApp, type MockApp } from '../app.js';
import type { MockControls } from '../mock-controls.js';
import type { MockOptions } from '../options.js';
import { InProcessHttp } from '../http/in-process-http.js';
import { requestBodyFromNock } from './nock-body.js';

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
];
/** Framing the in-process connection used; nock frames its own reply. */
const FRAMING = ['transfer-encoding', 'connection', 'keep-alive', 'content-length'];

/** Options of interceptCloud: those of createApp (mode replay serves a recording instead of the emulator). */
export type InterceptOptions = MockOptions;

export interface CloudInterception extends MockControls {
  /** The emulator (or replay) behind the interceptors: its store, reset and options. */
  mock: MockApp;
  /** State back to the seed (and a replay back to its first answers). */
  reset(): Promise<void>;
  /** Removes the interceptors and releases the store. */
  restore(): Promise<void>;
}

/**
 * Serves every request that a Node client under test sends to `baseUrl` from an in-process
 * emulator (or replay) through nock: no port is opened, and the links in the answers name
 * `baseUrl`, so the client keeps talking to the address it was given. Needs the `nock` package.
 *
 * ```ts
 * const cloud = await interceptCloud('https://cloud.example.test');
 * // ... run the client against https://cloud.example.test ...
 * await cloud.restore();
 * ```
 */
export async function interceptCloud(baseUrl: string, options: InterceptOptions = {}): Promise<CloudInterception> {
  const { default: nock } = await import('nock');
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const mock = await createApp({ ...options, publicUrl: options.publicUrl ?? `${base.origin}${prefix}` });
  const http = new InProcessHttp(mock.app);
  const scope = nock(base.origin).persist();
  const interceptors: Interceptor[] = [];
  for (const method of METHODS) {
    const interceptor = scope.intercept((path: string) => path.startsWith(prefix), method);
    interceptors.push(interceptor);
    interceptor.reply(function (uri, body, callback) {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(this.req.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
      http
        .dispatch({ method, url: uri.slice(prefix.length) || '/', headers, body: requestBodyFromNock(body) })
        .then((answer) => {
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers)) if (!FRAMING.includes(name)) out[name] = value;
          callback(null, [answer.status, answer.body, out]);
        })
        .catch((err: Error) => callback(err, [500, '', {}]));
    });
  }
  return {
    mock,
    reset: () => mock.reset(),
    requests: async (filter) => mock.requests(filter),
    restore: async () => {
      for (const interceptor of interceptors) nock.removeInterceptor(interceptor);
      await mock.close();
    },
  };
}
