// What the journal keeps of each answer: its headers (credentials removed) always, and its first bytes while
// a watcher such as the inspector previews them.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp, type RunningMock } from '../../../src/index.js';

let mock: MockApp | RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const get = (app: MockApp['app'], path: string) =>
  request(app).get(path).auth('demo', 'demo').set('X-Client-Specification', '2');

const COOKIE_FAULT = {
  name: 'cookie',
  faults: [
    {
      name: 'sets-a-cookie',
      match: { method: 'GET', path: '/v2/account' },
      respond: { status: 503, headers: { 'Set-Cookie': 'session=sess-secret-42', 'Retry-After': '7' }, body: 'later' },
    },
  ],
};

describe("the journal's record of each answer", () => {
  it("keeps the answer's headers as sent, with Set-Cookie removed, also over /__admin/requests", async () => {
    mock = await createApp({ scenario: COOKIE_FAULT });
    await get(mock.app, '/v2/account').expect(503);
    await get(mock.app, '/dav/Documents/readme.txt').expect(200);
    const [fault, file] = mock.requests();
    expect(fault!.responseHeaders).toMatchObject({ 'set-cookie': '[removed]', 'retry-after': '7' });
    expect(JSON.stringify(fault)).not.toContain('sess-secret-42');
    expect(file!.responseHeaders).toMatchObject({ 'content-type': expect.stringMatching(/^text\/plain/) });
    expect(file!.responseHeaders!['etag']).toBe(file!.etag);
    const { body } = await request(mock.app).get('/__admin/requests?path=/v2/account').expect(200);
    expect(body.requests[0].responseHeaders['set-cookie']).toBe('[removed]');
    expect(JSON.stringify(body)).not.toContain('sess-secret-42');
  });

  it('keeps no body by default, the first 4 KiB of each answer while previews are on, and none after', async () => {
    mock = await createApp();
    await get(mock.app, '/v2/account').expect(200);
    const release = mock.journal.previewBodies();
    await request(mock.app).put('/dav/big.txt').auth('demo', 'demo').send('y'.repeat(5000)).expect(201);
    await get(mock.app, '/v2/account').expect(200);
    await get(mock.app, '/dav/big.txt').expect(200);
    release();
    await get(mock.app, '/dav/big.txt').expect(200);
    const [before, put, account, big, after] = mock.requests();
    expect(before!.responseBody).toBeUndefined();
    expect(put!.requestBody).toBeUndefined();
    expect(account!.responseBody!.text).toContain('<authkey>[removed]</authkey>');
    expect(account!.responseBody!.text).not.toContain('csp-mock-not-a-real-key');
    expect(big!.responseBody).toMatchObject({ bytes: 5000, truncated: true });
    expect(big!.responseBody!.text).toBe('y'.repeat(4096));
    expect(after!.responseBody).toBeUndefined();
  });

  it('an open inspector stream turns previews on', async () => {
    mock = await startMock({});
    const stream = new AbortController();
    const events = await fetch(`${mock.url}/__admin/inspector/events`, { signal: stream.signal });
    const reader = events.body!.getReader();
    await reader.read(); // the snapshot: the stream is open
    try {
      const res = await fetch(`${mock.url}/dav/Documents/readme.txt`, {
        headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
      });
      const text = await res.text();
      expect((await mock.requests()).at(-1)!.responseBody!.text).toBe(text);
    } finally {
      stream.abort();
    }
  });
});
