// A web page cannot take the admin API's long-lived slots (request waits, inspector streams): cross-site
// reads are refused like cross-site writes, and one source holds at most half of each kind of slot.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STREAMS } from '../../../src/admin/inspector-events.js';
import { MAX_WAITERS } from '../../../src/admin/core-controls.js';
import { createApp, startMock, type MockApp, type RunningMock } from '../../../src/index.js';

let app: MockApp | undefined;
let running: RunningMock | undefined;
const open: ClientRequest[] = [];
afterEach(async () => {
  for (const req of open.splice(0)) req.destroy();
  await app?.close();
  await running?.close();
  app = running = undefined;
});

/** A GET to the running mock under `host`; resolves with the answer's status and headers once they arrive. */
function getAs(host: string, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: running!.port, path, headers: { Host: host } }, resolve);
    req.on('error', reject);
    req.end();
    open.push(req);
  });
}

describe('cross-site reads of the admin API are refused too', () => {
  it('a cross-site GET (Sec-Fetch-Site, a foreign Origin or Referer) of the journal, a wait or the event stream is 403; the inspector page by navigation is not', async () => {
    app = await createApp();
    const paths = [
      '/__admin/requests/count?path=/**',
      '/__admin/requests/wait?timeoutMs=0',
      '/__admin/inspector/events',
    ];
    const signals: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' },
      { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors' },
      { Origin: 'http://evil.localhost:1234' },
      { Origin: 'null' },
      { Referer: 'https://evil.example/page.html' },
      // Top-level navigation to anything but the inspector page: a link to a long poll.
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' },
    ];
    for (const path of paths)
      for (const headers of signals) {
        const res = await request(app.app).get(path).set(headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.text).toMatch(/refused/);
      }
    // Someone follows a link to the inspector: the page (no state) loads; its own calls are same-origin.
    const page = await request(app.app)
      .get('/__admin/')
      .set({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' });
    expect([200, 404]).toContain(page.status); // 404 only when the page was not built
    expect(page.status).not.toBe(403);
    const own = await request(app.app)
      .get('/__admin/requests/count')
      .set({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://127.0.0.1', Host: '127.0.0.1' });
    expect(own.status).toBe(200);
    // Tools send none of these headers.
    await request(app.app).get('/__admin/requests/count').expect(200);
  });
});

/** The answer's body as text. */
function textOf(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => (body += d));
    res.on('end', () => resolve(body));
  });
}

describe('one source cannot take every slot', () => {
  it(`one Host holds at most ${MAX_WAITERS / 2} of the ${MAX_WAITERS} request waits; another still gets one`, async () => {
    running = await startMock();
    const port = running.port;
    // Long polls answer only when they end: sent, not awaited.
    for (let i = 0; i < MAX_WAITERS / 2; i++)
      void getAs(`a.localhost:${port}`, '/__admin/requests/wait?path=/never&timeoutMs=60000').catch(() => undefined);
    // They are taken once a further one from the same Host is refused (each registers in the order sent).
    let refused: IncomingMessage | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const res = await getAs(`a.localhost:${port}`, '/__admin/requests/wait?path=/never&timeoutMs=0');
      if (res.statusCode === 503) refused = res;
      else res.resume();
    }
    expect(refused?.statusCode).toBe(503);
    expect(await textOf(refused!)).toMatch(
      `at most ${MAX_WAITERS / 2} request waits may be open at once from one source`,
    );
    const other = await getAs(`127.0.0.1:${port}`, '/__admin/requests/wait?path=/never&timeoutMs=0');
    expect(other.statusCode).toBe(200);
    expect(JSON.parse(await textOf(other))).toMatchObject({ request: null });
  });

  it(`one Host holds at most ${MAX_STREAMS / 2} of the ${MAX_STREAMS} inspector event streams; another still gets one`, async () => {
    running = await startMock();
    const port = running.port;
    for (let i = 0; i < MAX_STREAMS / 2; i++)
      expect((await getAs(`a.localhost:${port}`, '/__admin/inspector/events')).statusCode).toBe(200);
    const refused = await getAs(`a.localhost:${port}`, '/__admin/inspector/events');
    expect(refused.statusCode).toBe(503);
    expect(await textOf(refused)).toMatch(
      `at most ${MAX_STREAMS / 2} inspector streams may be open at once from one source`,
    );
    expect((await getAs(`127.0.0.1:${port}`, '/__admin/inspector/events')).statusCode).toBe(200);
  });
});
