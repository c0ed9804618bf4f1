// The built-in scenarios whose descriptions speak of uploads, downloads or every request reach WebDAV and CDMI
// as they reach /v2: flaky-uploads fails WebDAV PUTs, slow-network slows WebDAV GETs, expired-credentials refuses CDMI.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { dav } from '../dav/dav-helpers.js';

const opened: MockApp[] = [];
afterEach(async () => {
  for (const mock of opened.splice(0)) await mock.close();
});
async function open(scenario: string): Promise<MockApp> {
  const mock = await createApp({ log: () => undefined, scenario });
  opened.push(mock);
  return mock;
}

/** One WebDAV PUT: its status, with Retry-After when it has one, or 'reset' when the connection was reset. */
async function davPut(mock: MockApp, name: string): Promise<string> {
  try {
    const res = await request(mock.app).put(`/dav/${name}`).set('Authorization', BASIC_DEMO).send('payload');
    return res.headers['retry-after'] ? `${res.status} retry-after ${res.headers['retry-after']}` : String(res.status);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || /socket hang up/.test((err as Error).message)) return 'reset';
    throw err;
  }
}

describe('built-in scenarios reach WebDAV and CDMI as their descriptions say', () => {
  it('flaky-uploads: WebDAV PUTs get seeded resets, 503s with Retry-After and 500s, the same sequence on a fresh mock', async () => {
    const run = async (): Promise<string[]> => {
      const mock = await open('flaky-uploads');
      const outcomes: string[] = [];
      for (let i = 0; i < 30; i++) outcomes.push(await davPut(mock, `f${i}.txt`));
      const faults = mock.requests({ method: 'PUT', path: '/dav/**' }).map((e) => e.fault ?? '-');
      expect(new Set(faults)).toEqual(new Set(['-', 'dav-upload-reset', 'dav-upload-busy', 'dav-upload-500']));
      return outcomes;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['201', 'reset', '503 retry-after 1', '500']));
    const failed = first.filter((o) => o !== '201').length;
    expect(failed, `about one in three of ${first.join(', ')}`).toBeGreaterThanOrEqual(5);
    expect(failed).toBeLessThanOrEqual(15);
  });

  it('flaky-uploads leaves WebDAV reads and folders alone', async () => {
    const mock = await open('flaky-uploads');
    for (let i = 0; i < 20; i++) {
      await dav(mock.app, 'GET', '/dav/Documents/readme.txt').expect(200);
      await dav(mock.app, 'MKCOL', `/dav/folder-${i}`).expect(201);
    }
  });

  it('slow-network: a WebDAV GET is a download and meets the slow-download delay', async () => {
    const mock = await open('slow-network');
    await request(mock.app).get('/dav/Documents/readme.txt').set('Authorization', BASIC_DEMO).expect(200);
    expect(mock.requests({ path: '/dav/Documents/readme.txt' })[0]?.fault).toBe('slow-dav-download');
  });

  it('expired-credentials: CDMI requests answer 401 with a Basic challenge too', async () => {
    const mock = await open('expired-credentials');
    const res = await request(mock.app).get('/cdmi/demo').set('Authorization', BASIC_DEMO).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(mock.requests({ path: '/cdmi/demo' })[0]?.fault).toBe('expired-credentials-cdmi');
  });
});
