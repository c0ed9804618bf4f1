import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import express from 'express';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASIC_DEMO } from '../../helpers/cli.js';
import request from 'supertest';
import { createApp, readRecording, startMock, type RunningMock } from '../../../src/index.js';
import { ANSWER_SLICE } from '../../../src/http/answer.js';
import type { Har } from '../../../src/har/har-types.js';
import { CLI, killServersAfterEach, serve } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { EXAMPLE_RECORDING, basic, useTempDir } from './support.js';

const PASSWORD = 'pw-har-export-never-written';
const QUERY_TOKEN = 'tok-har-export-never-written';
const run = (args: string[], cwd: string) => runCommand(process.execPath, [CLI, ...args], { cwd });

/** Every form the password and the query token could take in a HAR. */
const secrets = [PASSWORD, QUERY_TOKEN, basic('demo', PASSWORD).slice('Basic '.length)];

/** A few requests with a body each way, a secret in the query and Basic credentials. */
async function session(url: string): Promise<void> {
  const auth = { Authorization: basic('demo', PASSWORD), 'X-Client-Specification': '2' };
  expect((await fetch(`${url}/dav/hello.txt`, { method: 'PUT', headers: auth, body: 'hello HAR' })).status).toBe(201);
  expect((await fetch(`${url}/dav/hello.txt`, { headers: auth })).status).toBe(200);
  expect((await fetch(`${url}/v2?access_token=${QUERY_TOKEN}&n=1`, { headers: auth })).status).toBe(200);
}

describe('the request journal as HAR', () => {
  let mock: RunningMock;

  beforeEach(async () => {
    mock = await startMock({ seed: 'empty', users: { demo: PASSWORD }, journalBodies: 4096 });
  });
  afterEach(() => mock.close());

  it('GET /__admin/requests?format=har answers a HAR 1.2 log of the journal, bodies included, credentials removed', async () => {
    await session(mock.url);
    const res = await fetch(`${mock.url}/__admin/requests?format=har&path=/**`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const secret of secrets) expect(text).not.toContain(secret);
    const har = JSON.parse(text) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('csp-mock');
    const [put, get, entry] = har.log.entries;
    expect(har.log.entries).toHaveLength(3);
    expect(put).toMatchObject({
      request: { method: 'PUT', url: `${mock.url}/dav/hello.txt`, postData: { text: 'hello HAR' }, bodySize: 9 },
      response: { status: 201, statusText: 'Created' },
      _user: 'demo',
    });
    expect(Number.isNaN(Date.parse(put!.startedDateTime))).toBe(false);
    expect(get!.response.content).toMatchObject({ size: 9, text: 'hello HAR' });
    expect(entry!.request.url.startsWith(`${mock.url}/v2?access_token=`)).toBe(true);
    expect(entry!.request.queryString.map((q) => q.name)).toEqual(['access_token', 'n']);
    expect(entry!.response.content.text).toContain('<cloud');
  });

  it('filters as the JSON journal does, and a format it does not know is a 400 naming the two it does', async () => {
    await session(mock.url);
    const har = (await (await fetch(`${mock.url}/__admin/requests?format=har&method=PUT`)).json()) as Har;
    expect(har.log.entries.map((e) => e.request.method)).toEqual(['PUT']);
    const wrong = await fetch(`${mock.url}/__admin/requests?format=xml`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toBe('400 format must be "json" (the default) or "har"\n');
  });
});

describe('csp-mock requests --har', () => {
  killServersAfterEach();
  const tmp = useTempDir('har-requests');

  it('prints the running mock journal as one HAR document, for a file', async () => {
    const server = await serve(['--empty', '--user', `demo:${PASSWORD}`, '--journal-bodies', '1024']);
    await session(server.url);
    const result = await run(['requests', '--url', server.url, '--har', '--method', 'GET'], tmp.path);
    expect(result.code).toBe(0);
    for (const secret of secrets) expect(result.stdout).not.toContain(secret);
    const har = JSON.parse(result.stdout) as Har;
    expect(
      har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`),
    ).toEqual(['GET /dav/hello.txt 200', 'GET /v2 200']);
    const refused = await run(['requests', '--url', server.url, '--har', '--follow'], tmp.path);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toBe(
      'csp-mock: --har prints one document: not with --follow, --json, --wait or --count',
    );
  });
});

describe('csp-mock convert RECORDING --to har', () => {
  const tmp = useTempDir('har-convert');

  it('writes every exchange with its bodies (binary as base64, sidecars read in) and links on --base-url', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    const out = join(tmp.path, 'session.har');
    const result = await run(
      ['convert', EXAMPLE_RECORDING, '--to', 'har', '--base-url', 'https://cloud.example.test', '-o', out],
      tmp.path,
    );
    expect(result.code).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain('{{baseUrl}}');
    const har = JSON.parse(text) as Har;
    expect(har.log.entries).toHaveLength(recording.exchanges.length);
    har.log.entries.forEach((entry, i) => {
      const exchange = recording.exchanges[i]!;
      expect(entry.request.method).toBe(exchange.request.method);
      expect(new URL(entry.request.url).origin).toBe('https://cloud.example.test');
      expect(new URL(entry.request.url).pathname).toBe(exchange.request.path);
      expect(entry.response.status).toBe(exchange.response.status);
      expect(entry.response.content.size).toBe(exchange.response.body.length);
      const content = entry.response.content;
      if (content.encoding === 'base64') expect(Buffer.from(content.text!, 'base64')).toEqual(exchange.response.body);
    });
    // A sidecar body (over 64 KiB) is in the HAR whole.
    const largest = Math.max(...har.log.entries.map((e) => e.response.content.size));
    expect(largest).toBeGreaterThan(64 * 1024);
    expect(har.log.entries.some((e) => e.response.content.encoding === 'base64')).toBe(true);
    expect(har.log.entries.find((e) => e.request.url.endsWith('/v2'))!.response.content.text).toContain(
      'https://cloud.example.test/v2/',
    );
  });

  it('prints to stdout without --out; a file that is not a recording gets one line and nothing is written', async () => {
    const printed = await run(['convert', 'example-session', '--to', 'har'], tmp.path);
    expect(printed.code).toBe(0);
    expect((JSON.parse(printed.stdout) as Har).log.entries.length).toBeGreaterThan(0);
    const notRecording = join(tmp.path, 'notes.jsonl');
    await writeFile(notRecording, '{"hello": "world"}\n');
    const out = join(tmp.path, 'out.har');
    const refused = await run(['convert', notRecording, '--to', 'har', '-o', out], tmp.path);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/notes\.jsonl: not a csp-mock recording/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a big journal exported as HAR', () => {
  it('goes out in slices: another client is answered while the HAR is made, and the HAR is whole', async () => {
    const app = await createApp({ journalSize: 400, journalBodies: 4096 });
    try {
      for (let i = 0; i < 400; i++)
        await request(app.app).put(`/dav/f${i}.txt`).auth('demo', 'demo').send('x'.repeat(4096)).expect(201);
      // What the server does, in order: the HAR asked for, the other client answered, the HAR's last byte.
      const order: string[] = [];
      const outer = express();
      outer.use((req, res, next) => {
        const path = req.path;
        order.push(`${path} arrived`);
        const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
        res.end = ((...args: unknown[]) => {
          order.push(`${path} ended`);
          return end(...args);
        }) as typeof res.end;
        // The other client asks once the export has begun.
        if (path === '/__admin/requests') setImmediate(() => void other());
        next();
      });
      outer.use(app.app);
      const server = outer.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      let otherDone: Promise<unknown> = Promise.resolve();
      const other = (): void => {
        otherDone = fetch(`${base}/v2/account`, {
          headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' },
        }).then((r) => r.text());
      };
      try {
        const har = await fetch(`${base}/__admin/requests?format=har`);
        expect(har.status).toBe(200);
        const text = await har.text();
        await otherDone;
        expect(order).toEqual([
          '/__admin/requests arrived',
          '/v2/account arrived',
          '/v2/account ended',
          '/__admin/requests ended',
        ]);
        const log = (JSON.parse(text) as Har).log;
        expect(log.entries).toHaveLength(400);
        expect(text.length).toBeGreaterThan(4 * ANSWER_SLICE);
      } finally {
        server.close();
        server.closeAllConnections();
      }
    } finally {
      await app.close();
    }
  });
});
