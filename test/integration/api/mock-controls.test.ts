// One test body, three mocks: startMock's (in this process), connectMock's (a csp-mock serve in another
// process) and interceptCloud's (no port). reset() and requests() are async on each, so the body is the same.
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMock, interceptCloud, startMock, type MockControls } from '../../../src/index.js';
import { BASIC_DEMO, killServersAfterEach, serve } from '../../helpers/cli.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };

/** A test body as a user writes it, for any mock at `url`. */
async function portableBody(mock: MockControls, url: string): Promise<void> {
  await mock.reset();
  expect(await mock.requests()).toEqual([]);
  expect((await fetch(`${url}/v2/account`, { headers })).status).toBe(200);
  expect((await fetch(`${url}/v2/no-such-resource`, { headers })).status).toBe(404);
  const journal = await mock.requests();
  expect(journal.map((e) => [e.method, e.path, e.status])).toEqual([
    ['GET', '/v2/account', 200],
    ['GET', '/v2/no-such-resource', 404],
  ]);
  expect((await mock.requests({ status: 404 })).map((e) => e.path)).toEqual(['/v2/no-such-resource']);
  await mock.reset();
  expect(await mock.requests()).toEqual([]);
}

describe('requests() and reset() are async on every mock, so test code moves between them unchanged', () => {
  killServersAfterEach();
  afterEach(() => {
    nock.cleanAll();
  });

  it('the same test body runs against startMock, connectMock and interceptCloud', { timeout: 60_000 }, async () => {
    const local = await startMock();
    try {
      await portableBody(local, local.url);
    } finally {
      await local.close();
    }

    const server = await serve();
    await portableBody(connectMock(server.url), server.url);

    const base = 'http://portable.example.test';
    const cloud = await interceptCloud(base);
    try {
      await portableBody(cloud, base);
    } finally {
      await cloud.restore();
    }
  });
});
