import { createApp, type MockApp } from '../app.js';
import { InProcessHttp } from '../http/in-process-http.js';
import type { MockControls } from '../features.js';
import type { MockOptions } from '../options.js';
import { plainRequestOf, responseOf } from './fetch-exchange.js';
import { loadNock } from './load-nock.js';
import { addTarget } from './shared-interceptor.js';

/** Options of interceptCloud: those of createApp (mode replay serves a recording instead of the emulator). */
export type InterceptOptions = MockOptions;

export interface CloudInterception extends MockControls {
  /** The emulator (or replay) behind the interceptors: its store, reset and options. */
  mock: MockApp;
  /** State back to the seed (and a replay back to its first answers). */
  reset(): Promise<void>;
  /** Removes the interception and releases the store. */
  restore(): Promise<void>;
}

/**
 * Serves every request that a Node client under test sends to `baseUrl` (with fetch, node:http or
 * node:https) from an in-process emulator (or replay): no port is opened, the request's bytes arrive
 * exactly as sent, and the links in the answers name `baseUrl`, so the client keeps talking to the
 * address it was given. Needs the `nock` package (an optional peer dependency): without it, the
 * promise rejects with the line that installs it.
 *
 * ```ts
 * const cloud = await interceptCloud('https://cloud.example.test');
 * // ... run the client against https://cloud.example.test ...
 * await cloud.restore();
 * ```
 */
export async function interceptCloud(baseUrl: string, options: InterceptOptions = {}): Promise<CloudInterception> {
  const kit = loadNock();
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const mock = await createApp({ ...options, publicUrl: options.publicUrl ?? `${base.origin}${prefix}` });
  const http = new InProcessHttp(mock.app);
  // nock hands a host it knows, and whose requests none of its interceptors match, on to the next
  // listener (ours) when allowUnmocked: so a suite's nock.disableNetConnect() lets these requests by.
  const passOn = kit
    .nock(base.origin, { allowUnmocked: true })
    .persist()
    .intercept(() => false, 'GET');
  passOn.reply(500);
  const stop = addTarget(kit, {
    origin: base.origin,
    prefix,
    answer: async (request) =>
      responseOf(await http.open(await plainRequestOf(request, prefix), request.signal), request.method),
  });
  let restored = false;
  return {
    mock,
    ...mock.controls,
    restore: async () => {
      if (restored) return;
      restored = true;
      stop();
      kit.nock.removeInterceptor(passOn);
      await mock.close();
    },
  };
}
