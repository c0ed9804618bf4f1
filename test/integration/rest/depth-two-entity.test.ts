import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { ANSWER_SLICE } from '../../../src/http/answer.js';
import { MAX_EXPANDED_ITEMS } from '../../../src/rest/listing-slices.js';
import { MEDIA } from '../../../src/rest/request-params.js';
import { containerView } from '../../../src/rest/views.js';
import { buildXml } from '../../../src/xml/codec.js';
import { containerEntity } from '../../../src/xml/entities.js';
import { Links } from '../../../src/xml/links.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { readArriving, wellFormed } from '../../helpers/big-folders.js';

const FILES = 2_000;
const KEYS = 16;
/** Every file carries KEYS metadata keys of 200 characters: at depth 2 each is a metadata-item link. */
const metadata = Object.fromEntries(
  Array.from({ length: KEYS }, (_, k) => [`${String(k).padStart(2, '0')}-${'k'.repeat(197)}`, 'v']),
);
const scenario: ScenarioDefinition = {
  name: 'depth-two',
  seed: {
    tree: [
      { container: 'empty' },
      {
        container: 'annotated',
        metadata: { own: 'key' },
        children: [
          { container: 'a folder', children: [{ file: 'inside.txt', text: 'abc' }] },
          ...Array.from({ length: FILES }, (_, i) => ({
            file: `f${String(FILES - i).padStart(5, '0')}.txt`,
            metadata,
          })),
        ],
      },
    ],
  },
};

/** Every answer's bytes as they go out, and the most that ever waited in Node's own buffer for the socket. */
interface Watched {
  written: number;
  mostBuffered: number;
}
let mock: MockApp;
let server: Server;
let url: string;
const watched: Watched[] = [];

beforeAll(async () => {
  mock = await createApp({ scenario });
  server = createServer((req, res) => {
    const w: Watched = { written: 0, mostBuffered: 0 };
    watched.push(w);
    const write = res.write.bind(res) as (chunk: string | Buffer) => boolean;
    res.write = ((chunk: string | Buffer) => {
      w.written += Buffer.byteLength(chunk);
      const flushed = write(chunk);
      w.mostBuffered = Math.max(w.mostBuffered, res.writableLength);
      return flushed;
    }) as typeof res.write;
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

const annotated = () => mock.store.resolvePath('demo', ['annotated'])!;
const entity = (headers: Record<string, string> = {}, onFirstChunk?: () => Promise<void>) =>
  readArriving(`${url}/v2/containers/${annotated().id}`, {
    headers: { 'X-Cloud-Depth': '2', ...headers },
    ...(onFirstChunk ? { onFirstChunk } : {}),
  });

/** The same entity built whole, as it was before it was streamed. */
function builtWhole(): string {
  const node = annotated();
  const members = mock.store.tree.children(node.id);
  const page = { items: members.slice(0, MAX_EXPANDED_ITEMS), start: 0, total: members.length };
  return buildXml(containerEntity(containerView(mock.store, node, page), new Links(url)));
}

describe(`the X-Cloud-Depth 2 entity of a container of ${FILES} files with ${KEYS} long metadata keys each is streamed`, () => {
  it('arrives chunked, in several pieces, byte for byte the entity built whole', async () => {
    const answer = await entity();
    expect(answer).toMatchObject({ status: 200, complete: true });
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-type']).toBe(`${MEDIA.container}; charset=utf-8`);
    expect(answer.chunks).toBeGreaterThan(1);
    expect(wellFormed(answer.text)).toBe(true);
    expect(answer.text).toBe(builtWhole());
    expect(answer.text.split('<metadata-item ')).toHaveLength(FILES * KEYS + 2);
  });

  it('a client that stops reading holds the answer: the server keeps at most a slice or two buffered, and answers others meanwhile', async () => {
    const before = watched.length;
    let release = (): void => undefined;
    const reading = entity({}, () => new Promise<void>((resolve) => (release = resolve)));
    while (watched.length === before) await new Promise((r) => setImmediate(r));
    const w = watched[before]!;
    while (w.written < 128 * 1024) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 3; i++) {
      const other = await fetch(`${url}/v2/account`, { headers: { Authorization: BASIC_DEMO } });
      expect(other.status).toBe(200);
    }
    const writtenWhileHeld = w.written;
    release();
    const answer = await reading;
    expect(answer.complete && wellFormed(answer.text)).toBe(true);
    const size = Buffer.byteLength(answer.text);
    expect(writtenWhileHeld).toBeLessThan(size);
    expect(w.mostBuffered).toBeLessThanOrEqual(3 * ANSWER_SLICE);
    expect(size).toBeGreaterThan(20 * w.mostBuffered);
  });

  it('answers its If-None-Match with 304; a metadata key set on a child changes its ETag', async () => {
    const first = await entity();
    const tag = String(first.headers.etag);
    expect(await entity({ 'If-None-Match': tag })).toMatchObject({ status: 304, text: '' });
    const child = mock.store.tree.children(annotated().id).find((n) => n.kind === 'file')!;
    await mock.store.annotations.setMetadata('demo', child.id, 'added', 'x');
    const after = await entity({ 'If-None-Match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(tag);
    expect(after.text).toBe(builtWhole());
  });

  it('a small container and an empty one at depth 2 go in one piece with their length, as built whole', async () => {
    for (const path of [['annotated', 'a folder'], ['empty']]) {
      const node = mock.store.resolvePath('demo', path)!;
      const answer = await readArriving(`${url}/v2/containers/${node.id}`, { headers: { 'X-Cloud-Depth': '2' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
      const members = mock.store.tree.children(node.id);
      const page = { items: members, start: 0, total: members.length };
      expect(answer.text).toBe(buildXml(containerEntity(containerView(mock.store, node, page), new Links(url))));
    }
  });
});
