import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { isSecretName } from '../../../src/http/secret-names.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('redaction');
let upstream: Server | undefined;
let mocks: RunningMock[] = [];
afterEach(async () => {
  for (const m of mocks) await m.close();
  mocks = [];
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  upstream = undefined;
});

const SECRET = {
  accessToken: 'at-1f9e-never-written',
  token: 'tk-77aa-never-written',
  password: 'pw-03bd-never-written',
  authToken: 'xat-5c2e-never-written',
  apiKey: 'xak-91d0-never-written',
  clientSecret: 'cs-4a4a-never-written',
  custom: 'cu-6b6b-never-written',
};
const query = `?access_token=${SECRET.accessToken}&token=${SECRET.token}&password=${SECRET.password}&start=0`;
const headers = (s = SECRET) => ({
  Authorization: 'Basic ZGVtbzpkZW1v',
  'X-Client-Specification': '2',
  'X-Auth-Token': s.authToken,
  'X-Api-Key': s.apiKey,
  'X-Client-Secret': s.clientSecret,
  'X-Custom-Sig': s.custom,
});

describe('secrets reach neither recordings nor the journal (issue 10, finding 7)', () => {
  it('one list: Authorization, cookies, X-Cloud-Key, X-Auth-Token, X-Api-Key and any name with token, secret, password or api-key', () => {
    for (const name of [
      'Authorization',
      'Cookie',
      'Set-Cookie',
      'X-Cloud-Key',
      'X-Auth-Token',
      'X-Api-Key',
      'access_token',
      'refresh-token',
      'client_secret',
      'password',
      'new-password',
      'apikey',
      'api_key',
      'x-apikey',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['content-type', 'range', 'x-cloud-depth', 'start', 'count', 'filterValue', 'n'])
      expect(isSecretName(name), name).toBe(false);
    expect(isSecretName('X-Custom-Sig', ['x-custom-sig'])).toBe(true);
  });

  it('recordings keep no ?access_token=, ?token=, ?password=, X-Auth-Token or X-Api-Key, and replay still matches', async () => {
    upstream = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`seen ${req.url?.split('?')[0]}`);
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const out = join(tmp.path, 'secrets.json');
    const recorder = await startMock({ mode: { kind: 'record', upstream: up, out, redact: ['X-Custom-Sig'] } });
    mocks.push(recorder);
    expect((await fetch(`${recorder.url}/v2/account${query}`, { headers: headers() })).status).toBe(200);
    // The recorder's own journal hides them too.
    const [entry] = await recorder.requests();
    for (const name of ['x-auth-token', 'x-api-key', 'x-client-secret', 'x-custom-sig', 'authorization'])
      expect(entry!.headers[name], name).toBe('[removed]');
    expect(entry!.query).toEqual({ access_token: '[removed]', token: '[removed]', password: '[removed]', start: '0' });
    await recorder.close();
    mocks = [];
    const files = [out, ...(await readdir(tmp.path)).map((f) => join(tmp.path, f))];
    for (const file of files) {
      const text = await readFile(file, 'utf8').catch(() => '');
      for (const value of Object.values(SECRET)) expect(text, file).not.toContain(value);
    }
    // Other secret values on replay: redacted names are not compared, so it still matches.
    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    mocks.push(replay);
    const other = Object.fromEntries(Object.entries(SECRET).map(([k, v]) => [k, `${v}-other`])) as typeof SECRET;
    const res = await fetch(`${replay.url}/v2/account?access_token=x&token=y&password=z&start=0`, {
      headers: headers(other),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('seen /v2/account');
  });

  it('the journal of the emulator removes the same headers and query parameters', async () => {
    const mock = await startMock();
    mocks.push(mock);
    await fetch(`${mock.url}/v2/account${query}`, { headers: headers() });
    const [entry] = await mock.requests();
    for (const name of ['x-auth-token', 'x-api-key', 'x-client-secret', 'authorization'])
      expect(entry!.headers[name], name).toBe('[removed]');
    expect(entry!.headers['x-custom-sig']).toBe(SECRET.custom); // not secret unless --redact names it
    expect(entry!.query).toEqual({ access_token: '[removed]', token: '[removed]', password: '[removed]', start: '0' });
    expect(JSON.stringify(await mock.requests())).not.toMatch(
      new RegExp([SECRET.accessToken, SECRET.apiKey, SECRET.authToken].join('|')),
    );
  });
});
