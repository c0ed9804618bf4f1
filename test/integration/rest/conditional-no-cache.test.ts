// fetch adds Cache-Control: no-cache to every request carrying If-None-Match. An origin server evaluates the
// condition all the same (RFC 9110 13.2.1); express's req.fresh, written for caches, did not, so a fetch-based
// client revalidating an entity, a listing or content got the whole answer again instead of 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };
let mock: RunningMock;
let fileUrl: string;
let contentsUrl: string;

beforeAll(async () => {
  mock = await startMock();
  const id = mock.store.resolvePath('demo', ['Documents', 'readme.txt'])!.id;
  const documents = mock.store.resolvePath('demo', ['Documents'])!.id;
  fileUrl = `${mock.url}/v2/files/${id}`;
  contentsUrl = `${mock.url}/v2/containers/${documents}/contents`;
});
afterAll(() => mock.close());

/** A revalidation as fetch sends it: If-None-Match, and fetch's own Cache-Control: no-cache. */
async function revalidated(url: string, extra: Record<string, string> = {}): Promise<number> {
  const first = await fetch(url, { headers: { ...headers, ...extra } });
  await first.arrayBuffer();
  const etag = first.headers.get('etag');
  expect(etag).toBeTruthy();
  const again = await fetch(url, { headers: { ...headers, ...extra, 'If-None-Match': etag! } });
  await again.arrayBuffer();
  return again.status;
}

describe('conditional GETs from fetch (which adds Cache-Control: no-cache) answer 304', () => {
  it('a file entity by /v2', async () => {
    expect(await revalidated(fileUrl)).toBe(304);
  });

  it("a file's content by /v2 and by /dav", async () => {
    expect(await revalidated(`${fileUrl}/content`)).toBe(304);
    expect(await revalidated(`${mock.url}/dav/Documents/readme.txt`)).toBe(304);
  });

  it("a container's contents listing", async () => {
    expect(await revalidated(contentsUrl)).toBe(304);
  });

  it('a stale ETag still gets the whole answer', async () => {
    const res = await fetch(`${fileUrl}/content`, { headers: { ...headers, 'If-None-Match': '"not-this-one"' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Welcome, demo');
  });
});
