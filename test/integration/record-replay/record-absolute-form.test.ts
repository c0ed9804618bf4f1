import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { basic, rawExchange } from '../../helpers/raw-http.js';
import { readJson, useTempDir } from './support.js';

describe('record mode: a request line in absolute form (as to a proxy)', () => {
  const tmp = useTempDir();
  const running: RunningMock[] = [];
  afterEach(async () => {
    while (running.length) await running.pop()!.close();
  });

  it('GET http://host:port/v2/account is recorded under its origin-form path, and the file replays', async () => {
    const upstream = await startMock({ log: () => undefined });
    running.push(upstream);
    const out = join(tmp.path, 'absolute.json');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out }, log: () => undefined });
    const host = `127.0.0.1:${recorder.port}`;
    const sent = await rawExchange(
      recorder.port,
      [
        `GET http://${host}/v2/account?x=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic('demo', 'demo')}\r\n` +
          'X-Client-Specification: 2\r\nConnection: close\r\n\r\n',
      ],
      10_000,
    );
    expect(sent.received.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    await recorder.close();
    const [exchange] = (await readJson(out)).exchanges;
    expect(exchange!.request.path).toBe('/v2/account');

    const replay = await startMock({ mode: { kind: 'replay', recording: out }, log: () => undefined });
    running.push(replay);
    const again = await fetch(`${replay.url}/v2/account?x=1`, {
      headers: { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2' },
    });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('<account');
  });
});
