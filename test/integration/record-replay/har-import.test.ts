import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecording, startMock } from '../../../src/index.js';
import type { Har, HarEntry } from '../../../src/har/har-types.js';
import { EXAMPLE_RECORDING, basic, findInFiles, readJson, storedBase64, storedSidecar, useTempDir } from './support.js';
import { cliHere } from '../cli/in-process.js';

const BASE = 'https://cloud.example.test';
const PASSWORD = 'pw-har-import-never-written';
const SECRETS = {
  password: PASSWORD,
  basic: basic('alice', PASSWORD).slice('Basic '.length),
  cookie: 'sess-har-import-never-written',
  queryToken: 'qt-har-import-never-written',
  refererToken: 'rt-har-import-never-written',
  authToken: 'at-har-import-never-written',
  s3key: 's3-har-import-never-written',
};
const run = (args: string[], cwd: string) => cliHere(args, { cwd });

/** One HAR entry as a browser writes it (headers as name/value lists, content decoded). */
function entry(
  method: string,
  url: string,
  status: number,
  parts: {
    requestHeaders?: Record<string, string>;
    postData?: HarEntry['request']['postData'];
    responseHeaders?: Record<string, string>;
    content?: Partial<HarEntry['response']['content']>;
    extra?: Partial<HarEntry>;
    started?: string;
  } = {},
): HarEntry {
  const list = (h: Record<string, string> = {}) => Object.entries(h).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: parts.started ?? '2026-11-01T10:00:00.000Z',
    time: 12,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [{ name: 'session', value: SECRETS.cookie }],
      headers: list({ Authorization: basic('alice', PASSWORD), ...parts.requestHeaders }),
      queryString: [],
      ...(parts.postData && { postData: parts.postData }),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [{ name: 'session', value: SECRETS.cookie }],
      headers: list(parts.responseHeaders),
      content: { size: 0, mimeType: '', ...parts.content },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
    ...parts.extra,
  };
}

const har = (entries: HarEntry[]): Har => ({
  log: { version: '1.2', creator: { name: 'test', version: '1' }, entries },
});

const BINARY = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
const LARGE = Buffer.alloc(3000, 'x');
const BOUNDARY = '----WebKitFormBoundaryQ8x1';

/** A capture with credentials everywhere a browser puts them, bodies of each kind, and entries to skip. */
function capture(): Har {
  return har([
    entry('GET', `${BASE}/v2?access_token=${SECRETS.queryToken}&n=5`, 200, {
      requestHeaders: {
        'X-Client-Specification': '2',
        Cookie: `session=${SECRETS.cookie}`,
        'X-Auth-Token': SECRETS.authToken,
        Referer: `${BASE}/app?token=${SECRETS.refererToken}&view=list`,
        'Accept-Encoding': 'gzip',
      },
      responseHeaders: {
        'Content-Type': 'application/vnd.csp.cloud2+xml',
        'Content-Encoding': 'gzip',
        'Set-Cookie': `session=${SECRETS.cookie}`,
        Date: 'Sun, 01 Nov 2026 10:00:00 GMT',
      },
      content: {
        size: 120,
        mimeType: 'application/vnd.csp.cloud2+xml',
        text: `<cloud xmlns:xlink="http://www.w3.org/1999/xlink"><account xlink:href="${BASE}/v2/account"/><s3><authkey>${SECRETS.s3key}</authkey></s3></cloud>`,
      },
    }),
    entry('GET', `${BASE}/dav/photo.bin`, 200, {
      started: '2026-11-01T10:00:01.000Z',
      responseHeaders: { 'Content-Type': 'application/octet-stream' },
      content: {
        size: BINARY.length,
        mimeType: 'application/octet-stream',
        text: BINARY.toString('base64'),
        encoding: 'base64',
      },
    }),
    entry('PUT', `${BASE}/dav/large.txt`, 201, {
      started: '2026-11-01T10:00:02.000Z',
      postData: { mimeType: 'text/plain', text: LARGE.toString('utf8') },
    }),
    entry('POST', `${BASE}/v2/containers/c1/contents`, 201, {
      started: '2026-11-01T10:00:03.000Z',
      requestHeaders: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      postData: {
        mimeType: `multipart/form-data; boundary=${BOUNDARY}`,
        text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nA\r\n--${BOUNDARY}--\r\n`,
      },
      responseHeaders: { Location: `${BASE}/v2/files/f1`, 'Content-Type': 'text/uri-list' },
      content: { size: 30, mimeType: 'text/uri-list', text: `${BASE}/v2/files/f1\r\n` },
    }),
    // Left out: another site, the mock's admin API, a request never answered, one served from the cache.
    entry('GET', 'https://fonts.example.org/font.woff2', 200),
    entry('GET', `${BASE}/__admin/requests`, 200),
    entry('GET', `${BASE}/v2/slow`, 0),
    entry('GET', `${BASE}/v2/cached`, 200, { extra: { _fromCache: 'memory' } }),
  ]);
}

describe('csp-mock import-har', () => {
  const tmp = useTempDir('har-import');

  async function importCapture(doc: Har, extra: string[] = []): Promise<{ out: string; stdout: string }> {
    const file = join(tmp.path, 'capture.har');
    await writeFile(file, JSON.stringify(doc));
    const out = join(tmp.path, 'recordings', 'from-browser.jsonl');
    const result = await run(['import-har', file, '--base-url', BASE, '-o', out, ...extra], tmp.path);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return { out, stdout: result.stdout };
  }

  it('never writes a credential: Authorization, cookies, tokens in the query, the Referer and XML bodies', async () => {
    const { out } = await importCapture(capture(), ['--sidecar-threshold', '16']);
    // Every file written (the recording and its sidecars), as bytes.
    expect(await findInFiles(join(tmp.path, 'recordings'), Object.values(SECRETS))).toEqual([]);
    const doc = await readJson(out);
    const first = doc.exchanges[0]!;
    expect(first.user).toBe('alice');
    expect(first.request.query).toEqual([['n', '5']]);
    expect(Object.keys(first.request.headers)).not.toContain('cookie');
    expect(first.request.headers['referer']).toBe(`${BASE}/app?token=[redacted]&view=list`);
    expect(Object.keys(first.response.headers)).not.toContain('set-cookie');
  });

  it('normalises as record does: origin to {{baseUrl}}, the multipart boundary, framing, dates and the decoded body coding', async () => {
    const { out } = await importCapture(capture());
    const [entryDoc, , , upload] = (await readJson(out)).exchanges;
    expect(entryDoc!.response.headers).not.toHaveProperty('content-encoding');
    expect(entryDoc!.response.headers).not.toHaveProperty('date');
    expect(entryDoc!.response.body).toEqual({
      text: '<cloud xmlns:xlink="http://www.w3.org/1999/xlink"><account xlink:href="{{baseUrl}}/v2/account"/><s3><authkey>[redacted]</authkey></s3></cloud>',
    });
    expect(upload!.request.headers['content-type']).toBe('multipart/form-data; boundary=csp-mock-boundary');
    expect(upload!.request.body).toMatchObject({ text: expect.stringContaining('--csp-mock-boundary\r\n') });
    expect(upload!.response.headers['location']).toBe('{{baseUrl}}/v2/files/f1');
  });

  it('keeps bodies: base64 content as its bytes, bodies over the threshold in sidecars, and replays them', async () => {
    const { out } = await importCapture(capture(), ['--sidecar-threshold', '1024']);
    const doc = await readJson(out);
    expect(Buffer.from(storedBase64(doc.exchanges[1]!.response.body)!, 'base64')).toEqual(BINARY);
    const sidecar = storedSidecar(doc.exchanges[2]!.request.body)!;
    expect(sidecar.bytes).toBe(LARGE.length);
    expect(await readFile(join(tmp.path, 'recordings', 'from-browser.bodies', sidecar.file))).toEqual(LARGE);
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    try {
      const photo = await fetch(`${replay.url}/dav/photo.bin`, { headers: { Authorization: basic('alice', 'x') } });
      expect(Buffer.from(await photo.arrayBuffer())).toEqual(BINARY);
      const put = await fetch(`${replay.url}/dav/large.txt`, {
        method: 'PUT',
        body: LARGE,
        headers: { Authorization: basic('alice', 'x'), 'Content-Type': 'text/plain' },
      });
      expect(put.status).toBe(201);
      const entryDoc = await fetch(`${replay.url}/v2`, {
        headers: { Authorization: basic('alice', 'x'), 'X-Client-Specification': '2' },
      });
      expect(await entryDoc.text()).toContain(`${replay.url}/v2/account`);
    } finally {
      await replay.close();
    }
  });

  it("a web app's own page loads on the service's origin are kept, and the summary says verify skips them", async () => {
    const page = (path: string, mimeType: string) =>
      entry('GET', `${BASE}${path}`, 200, { content: { size: 4, mimeType, text: 'page' } });
    const { out, stdout } = await importCapture(
      har([page('/', 'text/html'), page('/assets/app.js', 'text/javascript'), entry('GET', `${BASE}/v2`, 200)]),
    );
    expect((await readJson(out)).exchanges.map((e) => e.request.path)).toEqual(['/', '/assets/app.js', '/v2']);
    expect(stdout).toContain(
      "2 of the imported are not to the service (/v2, /dav, /cdmi; a web app's own pages): replay serves them, verify skips them",
    );
  });

  it('skips entries elsewhere, to /__admin, never answered or from the browser cache, and says how many', async () => {
    const { out, stdout } = await importCapture(capture());
    expect((await readJson(out)).exchanges.map((e) => e.request.path)).toEqual([
      '/v2',
      '/dav/photo.bin',
      '/dav/large.txt',
      '/v2/containers/c1/contents',
    ]);
    expect(stdout.trim()).toBe(
      `imported 4 exchange(s) from ${join(tmp.path, 'capture.har')} into ${out}; skipped 1 elsewhere than --base-url, 1 to the mock's /__admin, 1 never answered, 1 from the browser's cache`,
    );
    expect((await readJson(out)).created).toBe('2026-11-01T10:00:00.000Z');
  });

  it('a recording exported as HAR comes back through import-har (or convert --to jsonl) and verifies', async () => {
    const original = await readRecording(EXAMPLE_RECORDING);
    const harFile = join(tmp.path, 'example.har');
    expect(
      (await run(['convert', EXAMPLE_RECORDING, '--to', 'har', '--base-url', BASE, '-o', harFile], tmp.path)).code,
    ).toBe(0);
    const out = join(tmp.path, 'back.jsonl');
    const converted = await run(['convert', harFile, '--to', 'jsonl', '--base-url', BASE, '-o', out], tmp.path);
    expect(converted.code).toBe(0);
    const back = await readRecording(out);
    expect(
      back.exchanges.map((e) => [e.user, e.request.method, e.request.path, e.request.query, e.request.headers]),
    ).toEqual(
      original.exchanges.map((e) => [e.user, e.request.method, e.request.path, e.request.query, e.request.headers]),
    );
    expect(back.exchanges.map((e) => [e.response.status, e.response.headers, e.response.body])).toEqual(
      original.exchanges.map((e) => [e.response.status, e.response.headers, e.response.body]),
    );
    const verify = await run(['verify', '--recording', out], tmp.path);
    expect(verify.stdout).toMatch(/0 differ/);
    expect(verify.code).toBe(0);
  });

  it('a binary upload the browser wrote as text (or left out) is kept without its body and replays with any body', async () => {
    const upload = (text: string) =>
      entry('PUT', `${BASE}/dav/upload.bin`, 201, {
        requestHeaders: { 'Content-Type': 'application/octet-stream' },
        postData: { mimeType: 'application/octet-stream', text },
      });
    // As Chromium writes them: bytes over 127 as U+FFFD, or no text at all, beside the size it sent.
    const decoded = upload('\u0000\u0001\ufffd\ufffdA');
    decoded.request.bodySize = 6;
    const omitted = upload('');
    omitted.request.bodySize = 256;
    const { out, stdout } = await importCapture(har([decoded, omitted]));
    expect(stdout).toMatch(
      /2 request body\(ies\) the HAR kept only as text \(binary uploads\) match any body on replay/,
    );
    const doc = await readJson(out);
    expect(doc.exchanges.map((e) => [e.request.partialBody, e.request.body])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    try {
      const put = await fetch(`${replay.url}/dav/upload.bin`, {
        method: 'PUT',
        body: Buffer.from([0, 1, 200, 255, 65, 66]),
        headers: { Authorization: basic('alice', 'x'), 'Content-Type': 'application/octet-stream' },
      });
      expect(put.status).toBe(201);
    } finally {
      await replay.close();
    }
  });

  it.each([
    ['not JSON', '{"log": ', /capture\.har: not a HAR \(not JSON\)$/],
    ['a JSON file without log', '{"entries": []}', /capture\.har: not a HAR \(no "log" object\)$/],
    [
      'another HAR version',
      JSON.stringify({ log: { version: '3.0', entries: [] } }),
      /HAR version "3.0" is not supported/,
    ],
    ['a log without entries', JSON.stringify({ log: { version: '1.2' } }), /not a HAR \(no "log.entries" list\)$/],
    [
      'an entry without a URL',
      JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET' }, response: { status: 200 } }] } }),
      /log\.entries\[0\]\.request\.url: is required$/,
    ],
    [
      'a method that is not an HTTP token',
      JSON.stringify(har([entry('GET /x HTTP/1.1', `${BASE}/v2`, 200)])),
      /log\.entries\[0\]\.request\.method: must be an HTTP method \(a token\)$/,
    ],
    [
      'a header value that would split the answer',
      JSON.stringify(har([entry('GET', `${BASE}/v2`, 200, { responseHeaders: { 'X-Note': 'a\r\nSet-Cookie: x=1' } })])),
      /log\.entries\[0\]\.response\.headers\[0\]\.value: must be a string without control characters other than tab$/,
    ],
    [
      'nothing under --base-url',
      JSON.stringify(har([entry('GET', 'https://elsewhere.example.org/v2', 200)])),
      /no entry is under https:\/\/cloud\.example\.test/,
    ],
  ])('%s: one line, exit 1, and the recording already at --out is left as it was', async (_what, text, message) => {
    const file = join(tmp.path, 'capture.har');
    await writeFile(file, text);
    const out = join(tmp.path, 'kept.jsonl');
    const kept = `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`;
    await writeFile(out, kept);
    const result = await run(['import-har', file, '--base-url', BASE, '-o', out], tmp.path);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^csp-mock: /);
    expect(lines[0]).toMatch(message);
    expect(await readFile(out, 'utf8')).toBe(kept);
    expect(existsSync(join(tmp.path, 'kept.bodies'))).toBe(false);
  });
});
