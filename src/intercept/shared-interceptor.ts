import type { HttpInterceptor, NockKit } from './load-nock.js';

/** One intercepted base URL: its origin, its path prefix ('' for all) and what answers it. */
export interface InterceptTarget {
  origin: string;
  prefix: string;
  answer(request: Request): Promise<Response>;
}

interface SharedInterception {
  targets: Set<InterceptTarget>;
  attached: { interceptor: HttpInterceptor; owner: boolean; nock: NockKit['nock'] } | undefined;
}

/**
 * @mswjs/interceptors keeps one running instance per kind (http, fetch) for the whole process, shared
 * by everyone who applies one, nock included. A listener leaves that instance only through a dispose,
 * and a dispose by anyone but the owner ends the owner's instance too. So the process holds one
 * interceptor of ours however many interceptCloud calls are active, and takes it down, when the last
 * ends, in an order that leaves nock as it found it. "The process": the registry lives on globalThis,
 * so a process that loads both the ES module and the CommonJS build of csp-mock still holds one.
 */
const REGISTRY = Symbol.for('csp-mock.intercept-cloud');
const shared: SharedInterception = ((globalThis as Record<symbol, SharedInterception | undefined>)[REGISTRY] ??= {
  targets: new Set(),
  attached: undefined,
});
const targets = shared.targets;

function targetOf(url: string): InterceptTarget | undefined {
  const { origin, pathname } = new URL(url);
  for (const t of targets) {
    if (t.origin !== origin) continue;
    if (t.prefix === '' || pathname === t.prefix || pathname.startsWith(`${t.prefix}/`)) return t;
  }
  return undefined;
}

/** Starts answering `target`'s requests; the function returned stops it. */
export function addTarget(kit: NockKit, target: InterceptTarget): () => void {
  if (!shared.attached) {
    const interceptor = kit.httpInterceptor();
    // nock applies its interceptor when loaded: ours then joins nock's running instance, after nock's listener.
    const owner = !kit.nock.isActive();
    interceptor.apply();
    interceptor.on('request', async ({ request, controller }) => {
      const found = targetOf(request.url);
      if (!found) return;
      let answer: Response;
      try {
        answer = await found.answer(request);
      } catch (err) {
        // A client that gave up has had its answer already (the interceptor ended the request).
        if (!request.signal.aborted) controller.errorWith(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (!request.signal.aborted) controller.respondWith(answer);
    });
    shared.attached = { interceptor, owner, nock: kit.nock };
  }
  targets.add(target);
  return () => {
    if (!targets.delete(target) || targets.size > 0) return;
    detach();
  };
}

function detach(): void {
  const { interceptor, owner, nock } = shared.attached!;
  shared.attached = undefined;
  if (owner) {
    // Ours is the running instance (nock was off); a nock activated since then runs on it, so it
    // re-applies its own once ours is gone.
    interceptor.dispose();
    if (nock.isActive()) {
      nock.restore();
      nock.activate();
    }
  } else if (nock.isActive()) {
    // Ours runs on nock's instance: nock takes it down (with our listener), then brings up its own.
    nock.restore();
    interceptor.dispose();
    nock.activate();
  } else {
    interceptor.dispose();
  }
}
