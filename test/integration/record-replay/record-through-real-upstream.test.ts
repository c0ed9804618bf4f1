import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import {
  EXAMPLE_CREDENTIALS,
  runExampleSession,
  SESSION_FILES,
  type SessionStep,
} from '../../support/example-client/client-session.js';
import { binaryBytes, send } from '../../support/example-client/http-client.js';
import {
  basic,
  CREDS,
  eventually,
  findInFiles,
  readJson,
  RECORDINGS_DIR,
  secretsOf,
  storedBase64,
  storedSidecar,
  storedText,
  useTempDir,
} from './support.js';

const isLinkBody = (s: SessionStep): boolean => /xml|uri-list/.test(String(s.response.headers['content-type']));

describe('record mode: a reverse proxy in front of a real upstream process', () => {
  const tmp = useTempDir();
  let upstream: RunningMock;
  let recorder: RunningMock;
  let out: string;

  beforeEach(async () => {
    out = join(tmp.path, 'session.json');
    upstream = await startMock({ seed: 'empty', users: { [CREDS.user]: CREDS.password } });
    recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
  });
  afterEach(async () => {
    await recorder.close();
    await upstream.close();
  });

  it('appends each exchange as one JSON line as soon as it completes, after a versioned header line', async () => {
    const res = await send(recorder.url, {
      method: 'GET',
      path: '/v2',
      headers: { Authorization: basic(CREDS.user, CREDS.password) },
    });
    expect(res.status).toBe(200);
    expect(await eventually(async () => (await readJson(out)).exchanges.length === 1)).toBe(true);
    const doc = await readJson(out);
    expect(doc).toMatchObject({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}' });
    const lines = (await readFile(out, 'utf8')).split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'csp-mock-recording', version: 2 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 1, request: { path: '/v2' } });
    expect(lines[2]).toBe('');
    expect(doc.exchanges[0]).toMatchObject({
      id: 1,
      user: 'demo',
      request: { method: 'GET', path: '/v2' },
      response: { status: 200 },
    });
  });

  it('records a whole client session: every step, in order, with the upstream answers', async () => {
    const steps = await runExampleSession(recorder.url, CREDS);
    await recorder.close();
    const doc = await readJson(out);
    expect(doc.exchanges.map((e) => `${e.request.method} ${e.response.status}`)).toEqual(
      steps.map((s) => `${s.request.method} ${s.response.status}`),
    );
  });

  it('passes Expect: 100-continue, chunked uploads and Range reads through', async () => {
    const steps = await runExampleSession(recorder.url, CREDS);
    const put = steps.find((s) => s.name.startsWith('put logo.bin'))!;
    expect(put.request.expectContinue).toBe(true);
    expect(put.response.continued).toBe(true);
    const range = steps.find((s) => s.name.includes('Range'))!;
    expect(range.response.status).toBe(206);
    expect(range.response.body.equals(SESSION_FILES.logo.subarray(0, 100))).toBe(true);
    const archive = steps.find((s) => s.name === 'download archive.bin (sidecar)')!;
    expect(archive.response.body.equals(SESSION_FILES.archive)).toBe(true);
  });

  it('stores text as UTF-8, binary as base64, and bodies above the threshold in sidecar files', async () => {
    await runExampleSession(recorder.url, CREDS);
    await recorder.close();
    const doc = await readJson(out);
    const byMethodPath = (method: string, suffix: string) =>
      doc.exchanges.filter((e) => e.request.method === method && e.request.path.endsWith(suffix));
    const logoPut = byMethodPath('PUT', '/content').find((e) => storedBase64(e.request.body));
    expect(Buffer.from(storedBase64(logoPut!.request.body)!, 'base64').equals(SESSION_FILES.logo)).toBe(true);
    const archivePut = byMethodPath('PUT', '/content').find((e) => storedSidecar(e.request.body));
    expect(archivePut!.request.body).toMatchObject({
      bytes: SESSION_FILES.archive.length,
      // Relative to the recording's own bodies folder, so the pair can be renamed.
      file: expect.stringMatching(/^\d+-request\.bin$/),
    });
    expect(
      (await readFile(join(tmp.path, 'session.bodies', storedSidecar(archivePut!.request.body)!.file))).equals(
        SESSION_FILES.archive,
      ),
    ).toBe(true);
    const entry = doc.exchanges[0];
    expect(storedText(entry!.response.body)!.startsWith('<cloud')).toBe(true);
  });

  it('normalises the multipart boundary and the upstream origin, and keeps no framing or date headers', async () => {
    const steps = await runExampleSession(recorder.url, CREDS);
    await recorder.close();
    const text = await readFile(out, 'utf8');
    const doc = await readJson(out);
    const upload = doc.exchanges.find((e) =>
      /^multipart\/form-data/.test(String(e.request.headers['content-type'] ?? '')),
    );
    expect(upload!.request.headers['content-type']).toBe('multipart/form-data; boundary=csp-mock-boundary');
    expect(storedText(upload!.request.body)).toContain('--csp-mock-boundary\r\n');
    const sentBoundary = /boundary=(\S+)/.exec(
      steps.find((s) => s.name.includes('multipart'))!.request.headers!['Content-Type']!,
    )![1]!;
    expect(text).not.toContain(sentBoundary);
    expect(text).not.toContain(new URL(upstream.url).host);
    expect(text).not.toContain(new URL(recorder.url).host);
    expect(text).toContain('{{baseUrl}}/v2/containers/');
    for (const e of doc.exchanges) {
      for (const headers of [e.request.headers, e.response.headers]) {
        for (const name of ['content-length', 'transfer-encoding', 'date', 'host', 'expect'])
          expect(headers).not.toHaveProperty(name);
      }
    }
    // The client saw links naming the recorder, so it kept talking through it.
    expect(steps[0]!.response.body.toString()).toContain(`${recorder.url}/v2/containers/`);
  });

  it('never writes a credential: no password, Authorization value or X-Cloud-Key in any file it made', async () => {
    await runExampleSession(recorder.url, CREDS);
    await recorder.close();
    const doc = await readJson(out);
    const headerNames = doc.exchanges.flatMap((e) => [
      ...Object.keys(e.request.headers),
      ...Object.keys(e.response.headers),
    ]);
    expect(headerNames).toContain('x-client-specification');
    for (const name of ['authorization', 'x-cloud-key', 'cookie', 'set-cookie'])
      expect(headerNames).not.toContain(name);
    expect(await findInFiles(tmp.path, secretsOf(CREDS))).toEqual([]);
  });

  it('records and replays the observed 500 that closes the connection (binary body under an XML media type)', async () => {
    const auth = { Authorization: basic(CREDS.user, CREDS.password), 'X-Client-Specification': '2' };
    const entry = await send(recorder.url, { method: 'GET', path: '/v2', headers: auth });
    const root = new URL(/rootContainer xlink:href="([^"]+)"/.exec(entry.body.toString())![1]!).pathname;
    const fault = {
      method: 'POST',
      path: `${root}/contents`,
      headers: { ...auth, 'Content-Type': 'application/vnd.csp.file-info+xml' },
      body: binaryBytes(4096),
    };
    const live = await send(recorder.url, fault);
    expect(live.status).toBe(500);
    expect(live.headers.connection).toBe('close');
    await recorder.close();
    const doc = await readJson(out);
    // The recorder talks to the upstream over keep-alive, so the close is the upstream's own.
    expect(doc.exchanges[0]!.response.headers).not.toHaveProperty('connection');
    expect(doc.exchanges[1]!.response.headers).toMatchObject({
      connection: 'close',
      'content-type': 'text/plain; charset=UTF-8',
    });
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    try {
      // fetch keeps connections alive, so a close here comes from the replay.
      const replayedEntry = await fetch(`${replay.url}/v2`, { headers: auth });
      expect(replayedEntry.headers.get('connection')).not.toBe('close');
      const replayed = await fetch(`${replay.url}${fault.path}`, {
        method: 'POST',
        headers: fault.headers,
        body: new Uint8Array(fault.body),
      });
      expect(replayed.status).toBe(500);
      expect(replayed.headers.get('connection')).toBe('close');
      expect(Buffer.from(await replayed.arrayBuffer()).equals(live.body)).toBe(true);
    } finally {
      await replay.close();
    }
  });

  it('the shipped example recordings hold no credential of the session that made them', async () => {
    expect(await findInFiles(RECORDINGS_DIR, secretsOf(EXAMPLE_CREDENTIALS))).toEqual([]);
  });

  it('replays the session with the same statuses, content types and body bytes, binary and multipart included', async () => {
    const recorded = await runExampleSession(recorder.url, CREDS);
    await recorder.close();
    await upstream.close();
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    try {
      // Same client, new random multipart boundary, no upstream at all.
      const replayed = await runExampleSession(replay.url, CREDS);
      expect(replayed.map((s) => s.response.status)).toEqual(recorded.map((s) => s.response.status));
      for (const [i, step] of replayed.entries()) {
        const before = recorded[i]!;
        expect(step.response.headers['content-type'], step.name).toBe(before.response.headers['content-type']);
        const expected = isLinkBody(before)
          ? Buffer.from(before.response.body.toString().split(recorder.url).join(replay.url))
          : before.response.body;
        expect(step.response.body.equals(expected), step.name).toBe(true);
      }
      const download = replayed.find((s) => s.name === 'download logo.bin')!;
      expect(download.response.body.equals(SESSION_FILES.logo)).toBe(true);
    } finally {
      await replay.close();
    }
  });
});
