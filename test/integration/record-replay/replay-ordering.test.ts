import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, readRecording, type MockApp, type Recording } from '../../../src/index.js';
import { binaryBytes, multipartBody } from '../../support/example-client/http-client.js';
import { SESSION_FILES } from '../../support/example-client/client-session.js';
import { EXAMPLE_RECORDING } from './support.js';
import { binaryParser } from '../../helpers/cloud.js';

/** The notes file's entity path: GET twice in the example session (200, then 404 after its DELETE). */
function notesPath(recording: Recording): string {
  const gets = recording.exchanges.filter(
    (e) => e.request.method === 'GET' && /^\/v2\/files\/[^/]+$/.test(e.request.path),
  );
  expect(gets.map((e) => e.response.status)).toEqual([200, 404]);
  return gets[0]!.request.path;
}

describe('replay: ordered answers to repeated requests, per client', () => {
  let recording: Recording;
  let mock: MockApp;

  beforeEach(async () => {
    recording = await readRecording(EXAMPLE_RECORDING);
    mock = await createApp({ mode: { kind: 'replay', recording: EXAMPLE_RECORDING }, allowedHosts: ['.example.test'] });
    return () => mock.close();
  });

  it('gives repeated identical requests the recorded answers in order, the last one repeating', async () => {
    const path = notesPath(recording);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(mock.app).get(path)).status);
    expect(statuses).toEqual([200, 404, 404, 404]);
  });

  it('keeps the order per client: parallel X-Mock-Session clients each get 200, then 404, then 404', async () => {
    const path = notesPath(recording);
    const sessions = Array.from({ length: 8 }, (_, i) => `client-${i}`);
    // Each client runs its own sequence; the sequences interleave on the server.
    const seen = await Promise.all(
      sessions.map(async (session) => {
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++)
          statuses.push((await request(mock.app).get(path).set('X-Mock-Session', session)).status);
        return statuses;
      }),
    );
    expect(seen).toEqual(sessions.map(() => [200, 404, 404]));
  });

  it('keeps the order per Basic login when no session header is sent', async () => {
    const path = notesPath(recording);
    const as = (user: string) => request(mock.app).get(path).auth(user, 'any-password');
    const [a1, b1] = await Promise.all([as('demo'), as('other')]);
    const [a2, b2] = await Promise.all([as('demo'), as('other')]);
    expect([a1.status, b1.status, a2.status, b2.status]).toEqual([200, 200, 404, 404]);
  });

  it('serves the recorded bytes: binary content, Range answers and sidecar bodies', async () => {
    const contentGets = recording.exchanges.filter(
      (e) => e.request.method === 'GET' && e.request.path.endsWith('/content'),
    );
    const logo = contentGets.find((e) => e.response.body.length === SESSION_FILES.logo.length)!;
    const full = await request(mock.app).get(logo.request.path).buffer(true).parse(binaryParser);
    expect(full.status).toBe(200);
    expect((full.body as Buffer).equals(SESSION_FILES.logo)).toBe(true);
    const ranged = await request(mock.app)
      .get(logo.request.path)
      .set('Range', 'bytes=0-99')
      .buffer(true)
      .parse(binaryParser);
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${SESSION_FILES.logo.length}`);
    expect((ranged.body as Buffer).equals(SESSION_FILES.logo.subarray(0, 100))).toBe(true);
    const archive = contentGets.find((e) => e.response.body.length === SESSION_FILES.archive.length)!;
    const big = await request(mock.app).get(archive.request.path).buffer(true).parse(binaryParser);
    expect((big.body as Buffer).equals(SESSION_FILES.archive)).toBe(true);
  });

  it('matches a multipart upload whatever boundary the client picks this time', async () => {
    const upload = recording.exchanges.find((e) => String(e.request.headers['content-type']).startsWith('multipart/'))!;
    const boundary = 'a-completely-different-boundary-42';
    const res = await request(mock.app)
      .post(upload.request.path)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(multipartBody('file', 'notes.txt', 'text/plain', SESSION_FILES.notes, boundary));
    expect(res.status).toBe(201);
    expect(res.headers['location']).toMatch(/\/v2\/files\//);
    const otherBytes = await request(mock.app)
      .post(upload.request.path)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(multipartBody('file', 'notes.txt', 'text/plain', binaryBytes(20), boundary));
    expect(otherBytes.status).toBe(404);
  });

  it('matches the query sorted, without the cache-busting ?n=, and tells other values apart', async () => {
    const paged = recording.exchanges.find((e) => e.request.query.some(([k]) => k === 'start'))!;
    expect(paged.request.query.map(([k]) => k)).toEqual(['start', 'count', 'n']);
    const reordered = await request(mock.app).get(`${paged.request.path}?n=1&count=50&start=0`);
    expect(reordered.status).toBe(200);
    expect(reordered.text).toBe(
      paged.response.body
        .toString()
        .split('{{baseUrl}}')
        .join(`http://${new URL(reordered.request.url).host}`),
    );
    const otherPage = await request(mock.app).get(`${paged.request.path}?start=1&count=50`);
    expect(otherPage.status).toBe(404);
    expect(otherPage.text).toContain('differs: query "count=50&start=1" (recorded "count=50&start=0")');
  });

  it('writes our own origin into replayed links, and ignores cache-busting ?n=', async () => {
    const res = await request(mock.app).get('/v2?n=638000000001').set('Host', 'replay.example.test:9000');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http://replay.example.test:9000/v2/containers/');
    expect(res.text).not.toContain('{{baseUrl}}');
  });

  it('does not replay recorded framing: Content-Length is that of the body sent, no Transfer-Encoding', async () => {
    const res = await request(mock.app).get('/v2').set('Host', 'a.much.longer.host.name.example.test');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });
});
