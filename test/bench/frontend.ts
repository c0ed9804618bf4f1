// `npm run bench -- frontend`: what a frontend suite pays for isolation. Tenants of one served mock
// (create, delete, idle memory) and a request through the Playwright route against interceptCloud.
import { interceptCloud, startMock } from 'csp-mock';
import { routeCloud } from 'csp-mock/playwright';
import type { Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

const BASE = 'https://cloud.example.test';
const APP = 'https://app.example.test';
const HEADERS = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const MIB = 2 ** 20;

export interface TenantBench {
  tenants: number;
  /** POST /__admin/tenants over loopback, ms a tenant (median). */
  createMs: number;
  /** DELETE /__admin/tenants/NAME, ms a tenant (median). */
  deleteMs: number;
  /** RSS growth with `tenants` idle tenants, MiB a tenant. */
  idleMiB: number;
}

/** `tenants` tenants (demo seed) made one after another on one served mock, then deleted. */
export async function measureTenants(tenants: number): Promise<TenantBench> {
  const mock = await startMock({ port: 0, tenants: { max: tenants + 1 }, log: () => undefined });
  try {
    const admin = `${mock.url}/__admin/tenants`;
    const call = async (method: string, url: string, body?: unknown): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}`);
      return performance.now() - t0;
    };
    // A warm-up tenant: the first one loads and compiles what every later one reuses.
    await call('POST', admin, { name: 'warm-up' });
    await call('DELETE', `${admin}/warm-up`);
    const rssBefore = process.memoryUsage().rss;
    const created: number[] = [];
    for (let i = 0; i < tenants; i++) created.push(await call('POST', admin, { name: `bench-${i}` }));
    // Each tenant answers once, as a worker's first request would, then sits idle.
    for (let i = 0; i < tenants; i++) {
      const res = await fetch(`${mock.url}/t/bench-${i}/v2`, { headers: HEADERS });
      await res.arrayBuffer();
    }
    const idleMiB = (process.memoryUsage().rss - rssBefore) / MIB / tenants;
    const deleted: number[] = [];
    for (let i = 0; i < tenants; i++) deleted.push(await call('DELETE', `${admin}/bench-${i}`));
    return { tenants, createMs: median(created), deleteMs: median(deleted), idleMiB };
  } finally {
    await mock.close();
  }
}

export interface RouteBench {
  requests: number;
  /** GET /v2 by Node's fetch through interceptCloud, ms a request (median). */
  interceptMs: number;
  /** The same request by the page's fetch through the Playwright route to the mock. */
  routeMs: number;
  /** The same bytes fulfilled by a route that does nothing else: Playwright's own share. */
  bareRouteMs: number;
}

/** `count` sequential fetches of `url` in the page, each timed there; the median. */
async function timedInPage(page: Page, url: string, count: number): Promise<number> {
  const times = await page.evaluate(
    async ({ target, n, headers }) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res = await fetch(target, { headers });
        await res.arrayBuffer();
        out.push(performance.now() - t0);
      }
      return out;
    },
    { target: url, n: count, headers: HEADERS },
  );
  return median(times);
}

/** GET /v2 through interceptCloud, through the Playwright route, and the same bytes from a bare route. */
export async function measureRoute(requests: number): Promise<RouteBench> {
  const cloud = await interceptCloud(BASE);
  const intercept: number[] = [];
  let entry = Buffer.alloc(0);
  try {
    for (let i = 0; i < requests + 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`${BASE}/v2`, { headers: HEADERS });
      entry = Buffer.from(await res.arrayBuffer());
      if (i >= 20) intercept.push(performance.now() - t0);
    }
  } finally {
    await cloud.restore();
  }
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    await context.route(`${APP}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html>' }));
    const routed = await routeCloud(context, BASE);
    const page = await context.newPage();
    await page.goto(`${APP}/`);
    await timedInPage(page, `${BASE}/v2`, 20);
    const routeMs = await timedInPage(page, `${BASE}/v2`, requests);
    await routed.close();
    await context.route(`${BASE}/bare`, (route) =>
      route.fulfill({ status: 200, contentType: 'application/vnd.csp.cloud2+xml', body: entry }),
    );
    await timedInPage(page, `${BASE}/bare`, 20);
    const bareRouteMs = await timedInPage(page, `${BASE}/bare`, requests);
    return { requests, interceptMs: median(intercept), routeMs, bareRouteMs };
  } finally {
    await browser.close();
  }
}

const verdict = (ok: boolean): string => (ok ? '    met' : 'NOT met');
const ms = (n: number): string => `${n.toFixed(2)} ms`.padStart(10);

/** The rows of `npm run bench -- frontend`, each with its goal. */
export function formatFrontend(t: TenantBench, r: RouteBench): string {
  const overhead = r.routeMs - r.interceptMs;
  return [
    `Tenants of one served mock, ${t.tenants} made one after another (median)`,
    `create a tenant (POST /__admin/tenants)  ${ms(t.createMs)}   goal <= 5 ms  ${verdict(t.createMs <= 5)}`,
    `delete a tenant                          ${ms(t.deleteMs)}   goal <= 5 ms  ${verdict(t.deleteMs <= 5)}`,
    `RSS of an idle tenant                    ${`${t.idleMiB.toFixed(2)} MiB`.padStart(10)}   goal <= 2 MiB ${verdict(t.idleMiB <= 2)}`,
    '',
    `Playwright route, GET /v2, median of ${r.requests} sequential requests`,
    `interceptCloud (Node fetch)              ${ms(r.interceptMs)}`,
    `Playwright route to the mock (page)      ${ms(r.routeMs)}`,
    `Playwright route, same bytes, no mock    ${ms(r.bareRouteMs)}`,
    `overhead over interceptCloud             ${ms(overhead)}   goal <= 2 ms  ${verdict(overhead <= 2)}`,
    `  of which Playwright's own routing      ${ms(r.bareRouteMs - r.interceptMs)}`,
  ].join('\n');
}
