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
  password: 'pw-json-never-kept',
  clientSecret: 'cs-json-never-kept',
  formToken: 'tok-form-never-kept',
  multipart: 'mp-field-never-kept',
  access: 'at-answer-never-kept',
  refresh: 'rt-answer-never-kept',
  location: 'loc-query-never-kept',
  referer: 'ref-fragment-never-kept',
};

/** Every file under `dir` as one text. */
async function allText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true });
  const texts = await Promise.all(names.map((n) => readFile(join(dir, String(n)), 'utf8').catch(() => '')));
  return texts.join('\n');
}

const expectNoSecret = (text: string): void => {
  for (const [what, value] of Object.entries(S))
    expect({ what, leaked: text.includes(value) }).toEqual({ what, leaked: false });
};

const JSON_LOGIN = JSON.stringify({ user: 'demo', password: S.password, nested: { client_secret: S.clientSecret } });
const FORM = `grant_type=password&token=${S.formToken}&scope=all`;
const BOUNDARY = 'b0undary';
const MULTIPART =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${S.multipart}\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`;
const ANSWER = JSON.stringify({ access_token: S.access, refresh_token: S.refresh, expires_in: 60 });

describe('credentials in bodies, Location and Referer never reach a recording or the journal', () => {
  const tmp = useTempDir();
  const running: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (running.length) await running.pop()!.close();
  });

  it('record: JSON, form and multipart fields, token answers and a Location query are redacted; replay still matches', async () => {
    const upstream = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          Location: `/next?access_token=${S.location}&page=2`,
        });
        res.end(ANSWER);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    running.push({ close: () => new Promise((r) => upstream.close(() => r())) });
    const out = join(tmp.path, 'rec', 'login.json');
    const recorder = await startMock({
      mode: { kind: 'record', upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, out },
      log: () => undefined,
      journalBodies: 4096,
    });
    const posts: Array<[string, string]> = [
      ['application/json', JSON_LOGIN],
      ['application/x-www-form-urlencoded', FORM],
      [`multipart/form-data; boundary=${BOUNDARY}`, MULTIPART],
    ];
    for (const [type, body] of posts) {
      const res = await fetch(`${recorder.url}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
      });
      expect(await res.json()).toMatchObject({ access_token: S.access });
    }
    const journal = JSON.stringify(await recorder.requests());
    await recorder.close();
    expectNoSecret(await allText(join(tmp.path, 'rec')));
    for (const value of [S.password, S.formToken, S.multipart, S.location]) expect(journal).not.toContain(value);
    expect(await readFile(out, 'utf8')).toContain('[redacted]');

    // The same requests, with the real secrets, find their exchanges on replay.
    const replay = await startMock({ mode: { kind: 'replay', recording: out }, log: () => undefined });
    running.push(replay);
    for (const [type, body] of posts) {
      const res = await fetch(`${replay.url}/oauth/token`, { method: 'POST', headers: { 'Content-Type': type }, body });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
  });

  it('import-har: the same fields, token answers, a #access_token Referer and a ?access_token Location are redacted', async () => {
    const entry = (postData: { mimeType: string; text: string }): HarEntry => ({
      startedDateTime: '2026-11-01T10:00:00.000Z',
      time: 1,
      request: {
        method: 'POST',
        url: 'https://cloud.example.test/oauth/token',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'Content-Type', value: postData.mimeType },
          { name: 'Referer', value: `https://app.example.test/cb#access_token=${S.referer}&state=1` },
        ],
        queryString: [],
        postData,
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 302,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'Location', value: `https://cloud.example.test/next?access_token=${S.location}` },
        ],
        content: { size: ANSWER.length, mimeType: 'application/json', text: ANSWER },
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
            entry({ mimeType: 'application/json', text: JSON_LOGIN }),
            entry({ mimeType: 'application/x-www-form-urlencoded', text: FORM }),
            entry({ mimeType: `multipart/form-data; boundary=${BOUNDARY}`, text: MULTIPART }),
          ],
        },
      },
      'capture.har',
      { baseUrl: 'https://cloud.example.test', out },
    );
    const text = await allText(join(tmp.path, 'har'));
    expectNoSecret(text);
    expect(text).toContain('state=1');
  });
});
