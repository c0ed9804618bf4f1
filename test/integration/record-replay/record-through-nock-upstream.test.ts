import { join } from 'node:path';
import nock from 'nock';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type RunningMock } from '../../../src/index.js';
import { binaryBytes, multipartBody, send } from '../../support/example-client/http-client.js';
import { basic, CREDS, findInFiles, readJson, secretsOf, storedBase64, storedText, useTempDir } from './support.js';

const UPSTREAM = 'http://cloud.upstream.test';
const SECRETS = {
  cookie: 'sid=cookie-secret-77',
  setCookie: 'session=set-cookie-secret-88',
  token: 'api-token-secret-99',
  sig: 'query-sig-secret-11',
};

describe('record mode with nock playing the upstream', () => {
  const tmp = useTempDir();
  let recorder: RunningMock;
  let out: string;

  beforeEach(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    out = join(tmp.path, 'nock.json');
    recorder = await startMock({ mode: { kind: 'record', upstream: UPSTREAM, out, redact: ['X-Api-Token', 'sig'] } });
  });
  afterEach(async () => {
    await recorder.close();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('forwards credentials to the upstream but writes none of them, nor --redact names, cookies or dates', async () => {
    const seen: { headers?: Record<string, unknown>; path?: string } = {};
    nock(UPSTREAM)
      .get('/v2')
      .query(true)
      .reply(function (uri) {
        seen.headers = this.req.headers;
        seen.path = uri;
        return [
          200,
          `<cloud xmlns:xlink="http://www.w3.org/1999/xlink"><rootContainer xlink:href="${UPSTREAM}/v2/containers/R1" xlink:type="simple"/></cloud>`,
          {
            'Content-Type': 'application/vnd.csp.cloud+xml',
            'Set-Cookie': SECRETS.setCookie,
            Date: 'Sun, 22 Nov 2026 04:00:00 GMT',
          },
        ];
      });
    const res = await send(recorder.url, {
      method: 'GET',
      path: `/v2?sig=${SECRETS.sig}&n=5`,
      headers: {
        Authorization: basic(CREDS.user, CREDS.password),
        'X-Cloud-Key': CREDS.cloudKey,
        Cookie: SECRETS.cookie,
        'X-Api-Token': SECRETS.token,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain(`${recorder.url}/v2/containers/R1`);
    // The upstream got everything it needs to authenticate the client.
    expect(seen.headers).toMatchObject({
      authorization: basic(CREDS.user, CREDS.password),
      'x-cloud-key': CREDS.cloudKey,
      host: 'cloud.upstream.test',
    });
    expect(seen.path).toContain(`sig=${SECRETS.sig}`);

    await recorder.close(); // waits for the exchange to be on disk
    const doc = await readJson(out);
    const e = doc.exchanges[0]!;
    expect(e.request.query).toEqual([['n', '5']]);
    expect(Object.keys(e.request.headers)).not.toEqual(expect.arrayContaining(['x-api-token']));
    expect(e.response.headers).toEqual({ 'content-type': 'application/vnd.csp.cloud+xml' });
    expect(storedText(e.response.body)).toContain('{{baseUrl}}/v2/containers/R1');
    expect(doc.redacted).toEqual(
      expect.arrayContaining(['authorization', 'cookie', 'set-cookie', 'x-cloud-key', 'x-api-token', 'sig']),
    );
    expect(
      await findInFiles(tmp.path, [...secretsOf(CREDS), ...Object.values(SECRETS), 'cloud.upstream.test']),
    ).toEqual([]);
  });

  it('reaches an https upstream (node:https is loaded on the first https request, not at start)', async () => {
    const secure = 'https://secure.upstream.test';
    const https = await startMock({ mode: { kind: 'record', upstream: secure, out: join(tmp.path, 'https.json') } });
    try {
      let host: unknown;
      nock(secure)
        .get('/v2')
        .reply(function () {
          host = this.req.headers.host;
          return [200, '<cloud/>', { 'Content-Type': 'application/vnd.csp.cloud+xml' }];
        });
      const res = await send(https.url, {
        method: 'GET',
        path: '/v2',
        headers: { Authorization: basic(CREDS.user, CREDS.password) },
      });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('<cloud/>');
      expect(host).toBe('secure.upstream.test');
    } finally {
      await https.close();
    }
  });

  it('round-trips a binary multipart upload and a binary download byte for byte, then replays them', async () => {
    const file = binaryBytes(4000, 3);
    const boundary = 'nock-test-boundary-1';
    const upload = multipartBody('file', 'photo.raw', 'application/octet-stream', file, boundary);
    let received: Buffer | undefined;
    nock(UPSTREAM)
      .post('/v2/containers/C1/contents')
      .reply(
        201,
        function (_uri, body) {
          // nock hands a reply function bytes that are not UTF-8 (this upload's) as hex.
          received = Buffer.from(String(body), 'hex');
          return `${UPSTREAM}/v2/files/F1\r\n`;
        },
        { 'Content-Type': 'text/uri-list', Location: `${UPSTREAM}/v2/files/F1` },
      )
      .get('/v2/files/F1/content')
      .reply(200, file, { 'Content-Type': 'application/octet-stream' });

    const created = await send(recorder.url, {
      method: 'POST',
      path: '/v2/containers/C1/contents',
      headers: {
        Authorization: basic(CREDS.user, CREDS.password),
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body: upload,
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${recorder.url}/v2/files/F1`);
    expect(received!.equals(upload)).toBe(true);
    const download = await send(recorder.url, {
      method: 'GET',
      path: '/v2/files/F1/content',
      headers: { Authorization: basic(CREDS.user, CREDS.password) },
    });
    expect(download.body.equals(file)).toBe(true);
    await recorder.close();

    const doc = await readJson(out);
    expect(
      Buffer.from(storedBase64(doc.exchanges[0]!.request.body)!, 'base64').equals(
        multipartBody('file', 'photo.raw', 'application/octet-stream', file, 'csp-mock-boundary'),
      ),
    ).toBe(true);
    expect(Buffer.from(storedBase64(doc.exchanges[1]!.response.body)!, 'base64').equals(file)).toBe(true);

    const replay = await createApp({ mode: { kind: 'replay', recording: out }, allowedHosts: ['replay.test'] });
    try {
      const again = await request(replay.app)
        .post('/v2/containers/C1/contents')
        .set('Host', 'replay.test')
        .set('Content-Type', 'multipart/form-data; boundary=another-boundary')
        .send(multipartBody('file', 'photo.raw', 'application/octet-stream', file, 'another-boundary'));
      expect(again.status).toBe(201);
      expect(again.headers.location).toBe('http://replay.test/v2/files/F1');
      expect(again.text).toBe('http://replay.test/v2/files/F1\r\n');
      const bytes = await request(replay.app)
        .get('/v2/files/F1/content')
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect((bytes.body as Buffer).equals(file)).toBe(true);
    } finally {
      await replay.close();
    }
  });

  it('answers 502 text/plain when the upstream cannot be reached, and records nothing', async () => {
    nock(UPSTREAM).get('/v2').replyWithError('connection refused');
    const res = await send(recorder.url, { method: 'GET', path: '/v2' });
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body.toString()).toContain('upstream http://cloud.upstream.test did not answer');
    expect((await readJson(out)).exchanges).toEqual([]);
  });
});
