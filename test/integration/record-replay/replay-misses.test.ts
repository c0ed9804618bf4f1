import { cp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import express from 'express';
import {
  createApp,
  createReplayHandler,
  readRecording,
  RecordingWriter,
  startMock,
  type MockApp,
} from '../../../src/index.js';
import { parseUpstream } from '../../../src/record/upstream.js';
import { SESSION_FILES } from '../../support/example-client/client-session.js';
import { send } from '../../support/example-client/http-client.js';
import { binaryParser } from '../../helpers/cloud.js';
import {
  CREDS,
  EXAMPLE_RECORDING,
  RECORDINGS_DIR,
  basic,
  findInFiles,
  readJson,
  secretsOf,
  storedText,
  useTempDir,
} from './support.js';

describe('replay misses: a clear message, or the emulator, or the upstream', () => {
  const tmp = useTempDir();
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  const replayApp = async (options: Parameters<typeof createApp>[0]): Promise<MockApp> => {
    const mock = await createApp(options);
    open.push(mock);
    return mock;
  };

  it('error: answers 404 text/plain naming the request and the nearest recorded ones with what differed', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    const ranged = recording.exchanges.find((e) => e.request.headers['range'] !== undefined)!;
    const mock = await replayApp({ mode: { kind: 'replay', recording: EXAMPLE_RECORDING } });
    const res = await request(mock.app).get(ranged.request.path).set('Range', 'bytes=0-9');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.headers['x-csp-mock-replay']).toBe('miss');
    expect(res.text).toContain(`no recorded exchange matches GET ${ranged.request.path}`);
    expect(res.text).toContain(`exchange ${ranged.id}: GET ${ranged.request.path} -> 206`);
    expect(res.text).toContain('differs: header range: "bytes=0-9" (recorded "bytes=0-99")');
  });

  it('error: a miss shows no secret-named query value of a hand-made recording, and cuts a 100 KB query to one short line', async () => {
    const file = join(tmp.path, 'hand-made-secrets.jsonl');
    const header = { format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] };
    const recorded = (id: number, query: [string, string][]) => ({
      id,
      request: { method: 'GET', path: '/v2/account', query, headers: {} },
      response: { status: 200, headers: {} },
    });
    await writeFile(
      file,
      [header, recorded(1, [['password', 'hunter2']]), recorded(2, [['q', 'x'.repeat(100_000)]])]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const mock = await replayApp({ mode: { kind: 'replay', recording: file } });
    const res = await request(mock.app).get('/v2/account?q=y');
    expect(res.status).toBe(404);
    expect(res.text).toContain('exchange 1: GET /v2/account?password=[redacted] -> 200');
    expect(res.text).not.toContain('hunter2');
    expect(res.text.split('\n').every((line) => line.length < 400)).toBe(true);
  });

  it('error: says when the body differs and when the path differs', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    const create = recording.exchanges.find((e) =>
      String(e.request.headers['content-type']).includes('container-info'),
    )!;
    const mock = await replayApp({ mode: { kind: 'replay', recording: EXAMPLE_RECORDING } });
    const entity = '<container><name>Elsewhere</name></container>';
    const res = await request(mock.app)
      .post(create.request.path)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send(entity);
    expect(res.status).toBe(404);
    expect(res.text).toContain(`exchange ${create.id}: POST ${create.request.path} -> 201`);
    expect(res.text).toContain(
      `differs: body of ${entity.length} bytes differs (recorded ${create.request.body.length} bytes)`,
    );
    const typo = await request(mock.app).get('/v2/tagz');
    expect(typo.text).toContain('exchange');
    expect(typo.text).toContain('differs: path (recorded /v2/tags)');
  });

  it('emulate: the emulator answers misses, starting from the tree the recording shows', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    const upload = recording.exchanges.find((e) => String(e.request.headers['content-type']).startsWith('multipart/'))!;
    const notes = new URL(String(upload.response.headers['location']).replace('{{baseUrl}}', 'http://x')).pathname;
    const mock = await replayApp({
      mode: { kind: 'replay', recording: EXAMPLE_RECORDING, onMiss: 'emulate' },
      users: { demo: 'demo' },
    });
    // Recorded: answered from the recording.
    const entry = await request(mock.app).get('/v2').auth('demo', 'demo');
    expect(entry.status).toBe(200);
    const rootPath = new URL(/rootContainer xlink:href="([^"]+)"/.exec(entry.text)![1]!).pathname;
    // Not recorded: the emulator, with the recorded ids and contents.
    const root = await request(mock.app).get(rootPath).auth('demo', 'demo').set('X-Client-Specification', '2');
    expect(root.status).toBe(200);
    expect(root.text).toContain('<name>/</name>');
    const logo = await request(mock.app)
      .get('/dav/Photos/logo.bin')
      .auth('demo', 'demo')
      .buffer(true)
      .parse(binaryParser);
    expect(logo.status).toBe(200);
    expect((logo.body as Buffer).equals(SESSION_FILES.logo)).toBe(true);
    // notes.txt was deleted in the session: the emulator does not have it either.
    const deleted = await request(mock.app).get(`${notes}/content`).auth('demo', 'demo');
    expect(deleted.status).toBe(404);
    expect(deleted.headers['x-csp-mock-replay']).toBeUndefined();
  });

  it("emulate: a login the recording holds (not one of the mock's users) reaches the emulator with any password, as replay takes it; with --user its password is checked", async () => {
    await cp(RECORDINGS_DIR, tmp.path, { recursive: true });
    const file = join(tmp.path, 'example-session.jsonl');
    const { readFile } = await import('node:fs/promises');
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('"user":"demo"', '"user":"up"'));
    const mock = await replayApp({ mode: { kind: 'replay', recording: file, onMiss: 'emulate' } });
    const entry = await request(mock.app).get('/v2').auth('up', 'any-password');
    expect(entry.status).toBe(200);
    const rootPath = new URL(/rootContainer xlink:href="([^"]+)"/.exec(entry.text)![1]!).pathname;
    // Not recorded: emulated for the same login (it answered 401 unknown user "up").
    const root = await request(mock.app)
      .get(rootPath)
      .auth('up', 'another-password')
      .set('X-Client-Specification', '2');
    expect(root.status).toBe(200);
    expect(root.text).toContain('<name>/</name>');
    const dav = await request(mock.app).get('/dav/Photos/logo.bin').auth('up', 'x').buffer(true).parse(binaryParser);
    expect(dav.status).toBe(200);
    expect((dav.body as Buffer).equals(SESSION_FILES.logo)).toBe(true);
    // A login the recording never held is still unknown to the emulator.
    expect(
      (await request(mock.app).get(rootPath).auth('stranger', 'x').set('X-Client-Specification', '2')).status,
    ).toBe(401);

    const checked = await replayApp({
      mode: { kind: 'replay', recording: file, onMiss: 'emulate', users: { up: 'secret' } },
      users: { up: 'secret' },
    });
    expect(
      (await request(checked.app).get(rootPath).auth('up', 'wrong').set('X-Client-Specification', '2')).status,
    ).toBe(401);
    expect(
      (await request(checked.app).get(rootPath).auth('up', 'secret').set('X-Client-Specification', '2')).status,
    ).toBe(200);
  });

  it('emulate: a reset goes back to the recorded tree in one transaction (it used to seed twice)', async () => {
    const mock = await replayApp({
      mode: { kind: 'replay', recording: EXAMPLE_RECORDING, onMiss: 'emulate' },
      users: { demo: 'demo' },
    });
    const rootId = mock.store.root('demo').id;
    await mock.store.createFile('demo', rootId, { name: 'after-start.txt' }, Buffer.from('x'));
    const replaceState = vi.spyOn(mock.store, 'replaceState');
    const replaceUsers = vi.spyOn(mock.store, 'replaceUsers');
    await mock.reset();
    expect(replaceState).toHaveBeenCalledTimes(1);
    expect(replaceUsers).not.toHaveBeenCalled();
    // The recorded tree is back (same root, the recorded file), and what came after the start is gone.
    expect(mock.store.root('demo').id).toBe(rootId);
    const names = mock.store.tree.children(rootId).map((n) => n.name);
    expect(names).not.toContain('after-start.txt');
    const logo = await request(mock.app)
      .get('/dav/Photos/logo.bin')
      .auth('demo', 'demo')
      .buffer(true)
      .parse(binaryParser);
    expect((logo.body as Buffer).equals(SESSION_FILES.logo)).toBe(true);
  });

  it('createReplayHandler is a plain factory: express middleware over a recording, misses to a given emulator app', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    const emulator = await replayApp({ seed: 'demo' });
    const app = express().use(createReplayHandler(recording, { onMiss: 'emulate', emulator: emulator.app }));
    const recorded = await request(app).get('/v2');
    expect(recorded.text).toBe(
      recording.exchanges[0]!.response.body.toString()
        .split('{{baseUrl}}')
        .join(`http://${new URL(recorded.request.url).host}`),
    );
    const demoFile = await request(app).get('/dav/Documents/readme.txt').auth('demo', 'demo');
    expect(demoFile.status).toBe(200);
    expect(demoFile.text).toContain('csp-mock demo tree');
  });

  it('proxy: misses go to the upstream and are appended to the recording, then replayed without it', async () => {
    await cp(RECORDINGS_DIR, tmp.path, { recursive: true });
    const file = join(tmp.path, 'example-session.jsonl');
    const upstream = await startMock({ seed: 'empty', users: { [CREDS.user]: CREDS.password } });
    open.push(upstream);
    const replay = await startMock({
      mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstream.url },
    });
    open.push(replay);
    const ask = (url: string) =>
      send(url, {
        method: 'GET',
        path: '/v2/account',
        headers: {
          Authorization: basic(CREDS.user, CREDS.password),
          'X-Cloud-Key': CREDS.cloudKey,
          'X-Client-Specification': '2',
        },
      });
    const first = await ask(replay.url);
    expect(first.status).toBe(200);
    expect(first.body.toString()).toContain('<account-info');
    await open.pop()!.close(); // closing waits until the proxied exchange is in the recording
    const doc = await readJson(file);
    const added = doc.exchanges.at(-1);
    expect(added).toMatchObject({
      user: 'demo',
      request: { method: 'GET', path: '/v2/account' },
      response: { status: 200 },
    });
    expect(doc.exchanges.filter((e) => e.request.path === '/v2/account')).toHaveLength(1);
    expect(storedText(added!.response.body)).toContain('<authkey>[redacted]</authkey>');
    expect(await findInFiles(tmp.path, secretsOf(CREDS))).toEqual([]);

    await open.shift()!.close(); // the upstream is gone; the new exchange replays from the recording
    const again = await startMock({
      mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstream.url },
    });
    open.push(again);
    const second = await ask(again.url);
    expect(second.status).toBe(200);
    expect(second.body.toString()).toBe(
      first.body.toString().replace(/<authkey>[^<]*<\/authkey>/, '<authkey>[redacted]</authkey>'),
    );
  });

  it('proxy: a multipart upload proxied and recorded replays for the same upload sent under another boundary', async () => {
    const file = join(tmp.path, 'uploads.jsonl');
    await (await RecordingWriter.open(file, [])).flush();
    const upstream = await startMock({ seed: 'empty', users: { [CREDS.user]: CREDS.password } });
    open.push(upstream);
    const headers = { Authorization: basic(CREDS.user, CREDS.password), 'X-Client-Specification': '2' };
    const root = /\/v2\/containers\/([^"]+)"/.exec(
      (await send(upstream.url, { method: 'GET', path: '/v2', headers })).body.toString(),
    )![1]!;
    const upload = (url: string, boundary: string) =>
      send(url, {
        method: 'POST',
        path: `/v2/containers/${root}/contents`,
        headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
      });
    const replay = await startMock({
      mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstream.url },
    });
    expect((await upload(replay.url, 'first-boundary')).status).toBe(201);
    await replay.close();
    const strict = await startMock({ mode: { kind: 'replay', recording: file } });
    open.push(strict);
    const again = await upload(strict.url, 'second-boundary');
    expect(again.headers['x-csp-mock-replay']).toBeUndefined();
    expect(again.status).toBe(201);
  });

  it('proxy: settled() waits until a proxied miss is in the recording, which then answers it without the upstream', async () => {
    const file = join(tmp.path, 'gated.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    const upstream = await startMock({ seed: 'empty', users: { [CREDS.user]: CREDS.password } });
    open.push(upstream);
    const recording = await readRecording(file);
    const writer = await RecordingWriter.open(file, recording.redacted, true);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const add = writer.add.bind(writer);
    vi.spyOn(writer, 'add').mockImplementation(async (exchange) => {
      await gate;
      return add(exchange);
    });
    const replay = createReplayHandler(recording, { onMiss: 'proxy', upstream: parseUpstream(upstream.url), writer });
    const app = express().use(replay);
    const ask = () =>
      request(app).get('/v2/account').auth(CREDS.user, CREDS.password).set('X-Client-Specification', '2');

    expect((await ask()).status).toBe(200);
    let settled = false;
    const settling = replay.settled().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect((await readJson(file)).exchanges).toEqual([]);
    release();
    await settling;
    expect((await readJson(file)).exchanges).toHaveLength(1);

    await open.pop()!.close();
    const again = await ask();
    expect(again.status).toBe(200);
    expect(again.headers['x-csp-mock-replay']).toBeUndefined();
    expect(again.text).toContain('<account-info');
  });

  it('proxy: closing does not wait for an upstream that never answers; the waiting client gets a 502', async () => {
    const file = join(tmp.path, 'silent-upstream.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const silent = createServer(() => arrived());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () => new Promise<void>((resolve) => (silent.closeAllConnections(), silent.close(() => resolve()))),
    });
    const upstreamUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const mock = await createApp({ mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstreamUrl } });
    const answer = request(mock.app)
      .get('/v2/account')
      .then((r) => r);
    await reached;
    await mock.close();
    expect((await answer).status).toBe(502);
    expect((await readJson(file)).exchanges).toEqual([]);
  });

  it('proxy: a hand-made recording that lists no redacted names still never gets credentials written', async () => {
    const file = join(tmp.path, 'hand-made.json');
    await writeFile(
      file,
      JSON.stringify({ format: 'csp-mock-recording', version: 1, baseUrl: '{{baseUrl}}', exchanges: [] }),
    );
    const upstream = await startMock({ seed: 'empty', users: { [CREDS.user]: CREDS.password } });
    open.push(upstream);
    const replay = await startMock({
      mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstream.url },
    });
    open.push(replay);
    const res = await send(replay.url, {
      method: 'GET',
      path: '/v2/account',
      headers: {
        Authorization: basic(CREDS.user, CREDS.password),
        'X-Cloud-Key': CREDS.cloudKey,
        Cookie: 'session=s3cr3t-cookie',
        'X-Client-Specification': '2',
      },
    });
    expect(res.status).toBe(200);
    await open.pop()!.close(); // closing waits until the proxied exchange is in the recording
    expect((await readJson(file)).exchanges).toHaveLength(1);
    expect(await findInFiles(tmp.path, [...secretsOf(CREDS), 's3cr3t-cookie'])).toEqual([]);
  });

  it('proxy: a gzip XML answer has its links turned to our origin for the client and is stored decoded, as record does', async () => {
    const file = join(tmp.path, 'gzip.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    const upstream = createServer((req, res) => {
      const self = `http://${req.headers.host}`;
      res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(`<container><link href="${self}/v2/containers/c1"/></container>`));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => upstream.close(() => resolve())) });
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const replay = await startMock({
      mode: { kind: 'replay', recording: file, onMiss: 'proxy', upstream: upstreamUrl },
    });
    open.push(replay);
    const res = await send(replay.url, {
      method: 'GET',
      path: '/v2/containers/c1',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect([res.status, res.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(res.body).toString()).toBe(
      `<container><link href="${replay.url}/v2/containers/c1"/></container>`,
    );
    await open.pop()!.close(); // closing waits until the proxied exchange is in the recording
    const stored = (await readJson(file)).exchanges.at(-1)!;
    expect(storedText(stored.response.body)).toBe('<container><link href="{{baseUrl}}/v2/containers/c1"/></container>');
    expect(stored.response.headers['content-encoding']).toBeUndefined();
  });
});
