import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { ANSWER_SLICE } from '../../../src/http/answer.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { HOSTILE_NAMES, bigFolderScenario, memberName, readArriving, wellFormed } from '../../helpers/big-folders.js';
import { PROPFIND_ALL, propfindBody, readMultistatus } from './dav-helpers.js';

const FILES = 20_000;
const MEMBERS = FILES + 1;

/**
 * The app behind a plain node:http server, with every PROPFIND answer's writes watched: how many
 * bytes went out, and the most that ever waited in Node's own buffer for the socket (writableLength).
 */
interface Watched {
  written: number;
  mostBuffered: number;
}

let mock: MockApp;
let server: Server;
let url: string;
const watched: Watched[] = [];

beforeAll(async () => {
  mock = await createApp({ scenario: bigFolderScenario(FILES) });
  server = createServer((req, res) => {
    if (req.method === 'PROPFIND') {
      const w: Watched = { written: 0, mostBuffered: 0 };
      watched.push(w);
      const write = res.write.bind(res) as (chunk: string | Buffer) => boolean;
      res.write = ((chunk: string | Buffer) => {
        w.written += Buffer.byteLength(chunk);
        const flushed = write(chunk);
        w.mostBuffered = Math.max(w.mostBuffered, res.writableLength);
        return flushed;
      }) as typeof res.write;
    }
    mock.app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await mock.close();
});

const propfind = (path: string, body = PROPFIND_ALL, onFirstChunk?: () => Promise<void>) =>
  readArriving(`${url}/dav${path}`, {
    method: 'PROPFIND',
    headers: { Depth: '1', 'Content-Type': 'application/xml' },
    body,
    ...(onFirstChunk ? { onFirstChunk } : {}),
  });

const hrefsOf = (xml: string): string[] => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => m[1]!);
const account = (): Promise<Response> => fetch(`${url}/v2/account`, { headers: { Authorization: BASIC_DEMO } });

describe(`PROPFIND Depth 1 on a collection of ${FILES} files streams a complete multistatus`, () => {
  it('the answer arrives chunked, in several pieces, well-formed, the collection first and then every member once', async () => {
    const answer = await propfind('/big/');
    expect(answer).toMatchObject({ status: 207, complete: true });
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.chunks).toBeGreaterThan(1);
    expect(wellFormed(answer.text)).toBe(true);
    const hrefs = hrefsOf(answer.text);
    expect(hrefs).toHaveLength(MEMBERS);
    expect(hrefs[0]).toBe('/dav/big/');
    expect(hrefs.slice(1)).toEqual(Array.from({ length: FILES }, (_, i) => `/dav/big/${memberName(i)}`));
    expect(answer.text.split('<D:getcontentlength>0</D:getcontentlength>')).toHaveLength(FILES + 1);
  });

  it('a client that stops reading holds the answer: the server waits for the socket to drain, keeps at most a slice or two buffered, and answers others meanwhile', async () => {
    const before = watched.length;
    let release = (): void => undefined;
    const reading = propfind('/big/', PROPFIND_ALL, () => new Promise<void>((resolve) => (release = resolve)));
    while (watched.length === before) await new Promise((r) => setImmediate(r));
    const w = watched[before]!;
    // Members are being written (past the collection's own response): the socket's buffers fill up.
    while (w.written < 128 * 1024) await new Promise((r) => setImmediate(r));
    // The client has read one chunk and reads no more: others are answered meanwhile.
    for (let i = 0; i < 3; i++) expect((await account()).status).toBe(200);
    const writtenWhileHeld = w.written;
    release();
    const answer = await reading;
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    expect(hrefsOf(answer.text)).toHaveLength(MEMBERS);
    const size = Buffer.byteLength(answer.text);
    // Held, the server had sent only what the socket's buffers took; it never queued more than about a slice.
    expect(writtenWhileHeld).toBeLessThan(size);
    expect(w.mostBuffered).toBeLessThanOrEqual(3 * ANSWER_SLICE);
    expect(size).toBeGreaterThan(100 * w.mostBuffered);
  });

  it('a PROPFIND while another client writes shows the collection as it was when it started, each member once', async () => {
    const before = hrefsOf((await propfind('/big/', propfindBody('resourcetype'))).text);
    const answer = await propfind('/big/', propfindBody('resourcetype'), async () => {
      const auth = { Authorization: BASIC_DEMO };
      expect((await fetch(`${url}/dav/big/${memberName(FILES - 1)}`, { method: 'DELETE', headers: auth })).status).toBe(
        204,
      );
      const moved = await fetch(`${url}/dav/big/${memberName(FILES - 2)}`, {
        method: 'MOVE',
        headers: { ...auth, Destination: `${url}/dav/big/a-first-now.txt` },
      });
      expect(moved.status).toBe(201);
      expect((await fetch(`${url}/dav/big/b-new.txt`, { method: 'PUT', headers: auth, body: 'x' })).status).toBe(201);
    });
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    expect(hrefsOf(answer.text)).toEqual(before);
    const after = hrefsOf((await propfind('/big/', propfindBody('resourcetype'))).text);
    expect(after.slice(0, 3)).toEqual(['/dav/big/', '/dav/big/a-first-now.txt', '/dav/big/b-new.txt']);
    expect(after).toHaveLength(MEMBERS);
    expect(after).not.toContain(`/dav/big/${memberName(FILES - 1)}`);
  });

  it('names that look like markup or URLs are escaped and percent-encoded in a well-formed answer', async () => {
    const answer = await propfind('/hostile/', propfindBody('displayname'));
    expect(wellFormed(answer.text)).toBe(true);
    expect(answer.text).not.toContain('<script>');
    const responses = readMultistatus(answer.text).slice(1);
    expect(responses.map((r) => r.props['D:displayname']!.value).sort()).toEqual([...HOSTILE_NAMES].sort());
    expect(responses.map((r) => decodeURIComponent(r.href.slice('/dav/hostile/'.length))).sort()).toEqual(
      [...HOSTILE_NAMES].sort(),
    );
  });
});
