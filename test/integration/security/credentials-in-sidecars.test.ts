import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { importHar } from '../../../src/har/har-to-recording.js';
import type { HarEntry } from '../../../src/har/har-types.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** Values distinctive enough that finding one in a file is a leak. */
const S = {
  password: 'pw-big-json-never-kept',
  clientSecret: 'cs-big-json-never-kept',
  formPassword: 'pw-big-form-never-kept',
  refreshToken: 'rt-big-form-never-kept',
  fieldToken: 'tok-big-multipart-never-kept',
  access: 'at-big-answer-never-kept',
  refresh: 'rt-big-answer-never-kept',
};
/** Over the 64 KiB sidecar threshold. */
const PAD = 'x'.repeat(100 * 1024);

const BIG_JSON = JSON.stringify({
  user: 'demo',
  blob: PAD,
  password: S.password,
  nested: { client_secret: S.clientSecret, keep: 'visible' },
});
const BIG_FORM = `grant_type=password&username=alice&note=${PAD}&password=${S.formPassword}&refresh_token=${S.refreshToken}`;
const BOUNDARY = 'b0undary';
/** A 200 KiB file part between two text fields; the secret one comes after the file. */
const BIG_MULTIPART =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n` +
  `${'y'.repeat(200 * 1024)}\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${S.fieldToken}\r\n--${BOUNDARY}--\r\n`;
const BIG_ANSWER = JSON.stringify({ access_token: S.access, refresh_token: S.refresh, pad: PAD });

async function filesOf(dir: string): Promise<Array<{ name: string; text: string }>> {
  const names = (await readdir(dir, { recursive: true })).map(String);
  const files = await Promise.all(
    names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8').catch(() => '') })),
  );
  return files.filter((f) => f.text !== '');
}

function expectNoSecret(files: Array<{ name: string; text: string }>): void {
  for (const { name, text } of files)
    for (const [what, value] of Object.entries(S))
      expect({ name, what, leaked: text.includes(value) }).toEqual({ name, what, leaked: false });
}

describe('credentials in bodies over the 64 KiB sidecar threshold never reach a sidecar', () => {
  const tmp = useTempDir();
  const running: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (running.length) await running.pop()!.close();
  });

  it('record: a 100 KiB JSON body, a 100 KiB form body, a 300 KiB multipart body and a 100 KiB token answer are redacted in their sidecars; replay still matches', async () => {
    const upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(BIG_ANSWER);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    running.push({ close: () => new Promise((r) => upstream.close(() => r())) });
    const out = join(tmp.path, 'rec', 'big.json');
    const recorder = await startMock({
      mode: { kind: 'record', upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, out },
      log: () => undefined,
    });
    const posts: Array<[string, string]> = [
      ['application/json', BIG_JSON],
      ['application/x-www-form-urlencoded', BIG_FORM],
      [`multipart/form-data; boundary=${BOUNDARY}`, BIG_MULTIPART],
    ];
    for (const [type, body] of posts) {
      const res = await fetch(`${recorder.url}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
      });
      expect(await res.json()).toMatchObject({ access_token: S.access });
    }
    await recorder.close();
    const files = await filesOf(join(tmp.path, 'rec'));
    const sidecars = files.filter((f) => f.name.endsWith('.bin'));
    // Every request and every answer went to a sidecar: six files, each with its secrets replaced.
    expect(sidecars).toHaveLength(6);
    expectNoSecret(files);
    for (const { name, text } of sidecars)
      expect({ name, redacted: text.includes('[redacted]') }).toEqual({ name, redacted: true });
    const json = sidecars.find((f) => f.text.startsWith('{"user"'))!;
    expect(JSON.parse(json.text)).toMatchObject({
      password: '[redacted]',
      nested: { client_secret: '[redacted]', keep: 'visible' },
    });
    expect(sidecars.find((f) => f.text.startsWith('grant_type'))!.text).toContain(
      '&password=[redacted]&refresh_token=[redacted]',
    );

    // The same requests, with the real secrets, find their exchanges; the answer is the redacted one.
    const replay = await startMock({ mode: { kind: 'replay', recording: out }, log: () => undefined });
    running.push(replay);
    for (const [type, body] of posts) {
      const res = await fetch(`${replay.url}/oauth/token`, { method: 'POST', headers: { 'Content-Type': type }, body });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
      expect(await res.json()).toMatchObject({ access_token: '[redacted]', pad: PAD });
    }
  });

  it('import-har: the same bodies over the threshold are redacted in their sidecars', async () => {
    const entry = (postData: { mimeType: string; text: string }): HarEntry => ({
      startedDateTime: '2026-11-01T10:00:00.000Z',
      time: 1,
      request: {
        method: 'POST',
        url: 'https://cloud.example.test/oauth/token',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Content-Type', value: postData.mimeType }],
        queryString: [],
        postData,
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 200,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: { size: BIG_ANSWER.length, mimeType: 'application/json', text: BIG_ANSWER },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const out = join(tmp.path, 'har', 'imported.json');
    await importHar(
      {
        log: {
          version: '1.2',
          creator: { name: 'test', version: '1' },
          entries: [
            entry({ mimeType: 'application/json', text: BIG_JSON }),
            entry({ mimeType: 'application/x-www-form-urlencoded', text: BIG_FORM }),
            entry({ mimeType: `multipart/form-data; boundary=${BOUNDARY}`, text: BIG_MULTIPART }),
          ],
        },
      },
      'capture.har',
      { baseUrl: 'https://cloud.example.test', out },
    );
    const files = await filesOf(join(tmp.path, 'har'));
    expect(files.filter((f) => f.name.endsWith('.bin'))).toHaveLength(6);
    expectNoSecret(files);
  });
});
