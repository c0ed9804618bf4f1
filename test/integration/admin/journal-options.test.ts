// The journal's size, its optional bodies (capped, secrets removed) and its filters over HTTP.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const get = (app: MockApp['app'], path: string) =>
  request(app).get(path).auth('demo', 'demo').set('X-Client-Specification', '2');

describe('journal options', () => {
  it('keeps journalSize entries, the newest', async () => {
    mock = await createApp({ journalSize: 3 });
    for (const path of ['/v2', '/v2/account', '/v2/tags', '/v2/contacts']) await get(mock.app, path);
    expect(mock.requests().map((e) => e.path)).toEqual(['/v2/account', '/v2/tags', '/v2/contacts']);
  });

  it('keeps the first journalBodies bytes of bodies, with the account key removed', async () => {
    mock = await createApp({ journalBodies: 4096 });
    await get(mock.app, '/v2/account');
    await request(mock.app).put('/dav/big.txt').auth('demo', 'demo').send('x'.repeat(5000)).expect(201);
    const [account, put] = mock.requests();
    expect(account!.responseBody!.text).toContain('<authkey>[removed]</authkey>');
    expect(account!.responseBody!.text).not.toContain('csp-mock-not-a-real-key');
    expect(put!.requestBody).toMatchObject({ bytes: 5000, truncated: true });
    expect(put!.requestBody!.text).toHaveLength(4096);
  });

  it('filters /__admin/requests by method, path glob, status and since; refuses a bad filter with 400', async () => {
    mock = await createApp();
    await get(mock.app, '/v2');
    await get(mock.app, '/v2/files/nope');
    const { body } = await request(mock.app)
      .get('/__admin/requests?status=404&path=/v2/files/*&method=GET')
      .expect(200);
    expect(body.requests.map((e: { path: string }) => e.path)).toEqual(['/v2/files/nope']);
    await request(mock.app).get('/__admin/requests?status=abc').expect(400);
    await request(mock.app).get('/__admin/requests?since=yesterday').expect(400);
  });

  // A backtracking RegExp made from these took seconds (**a**a**b) to hours (**a**a**a**b) while every client
  // waited; the one path glob matches them in time linear in the path for each star.
  it('a path filter of **a**a**b over a 2,000-character path answers at once, and counts right', async () => {
    mock = await createApp();
    const long = `/v2/${'a'.repeat(2000)}`;
    await get(mock.app, long);
    for (const glob of ['**a**a**b', '**a**a**a**b', '/v2/**a**a**a**a**a**b']) {
      const { body } = await request(mock.app).get(`/__admin/requests/count?path=${encodeURIComponent(glob)}`);
      expect(body).toEqual({ count: 0 });
    }
    const { body } = await request(mock.app).get(`/__admin/requests/count?path=${encodeURIComponent('/v2/**a**a**a')}`);
    expect(body).toEqual({ count: 1 });
    expect((await get(mock.app, '/v2')).status).toBe(200);
  });
});
