import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { hostName } from '../../../src/http/host-check.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { rawExchange } from '../../helpers/raw-http.js';

let running: RunningMock | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Sends a GET with this exact Host line over a raw socket (no client library tidies it); status and body. */
async function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const head =
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${BASIC_DEMO}\r\n` +
    'X-Client-Specification: 2\r\nConnection: close\r\n\r\n';
  const { received } = await rawExchange(running!.port, [head], 10_000);
  const text = received.toString('latin1');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** Spellings at and around a bracketed IPv6 literal: not host[:port], so never answered nor echoed. */
const MALFORMED = [
  '[::1]evil.example',
  '[::1]evil.example:8080',
  '[::1].evil.example',
  '[::1]@evil.example',
  '[::1]/evil.example',
  '[::1]:8080evil.example',
  '[::1]:8080:80',
  '[::1]]',
  '[::1',
  '[::1][::2]',
  '[[::1]]',
  '[evil.example]',
  '[127.0.0.1]',
  '::1',
  '127.0.0.1:8080evil.example',
  'localhost:8080evil.example',
  'localhost@evil.example',
  'evil.example#.localhost',
  'a b.localhost',
  '',
];
/** Good spellings near them, answered with links that carry them as sent. */
const WELL_FORMED = ['[::1]', '[::1]:8080', '[::1]:', '[::FFFF:127.0.0.1]:80', '127.0.0.1:8080', 'localhost.:8080'];

describe('the Host check takes host[:port] only', () => {
  it('Host: [::1]evil.example is refused with 400 and never echoed into links (and every spelling near it)', async () => {
    running = await startMock({ seed: 'demo' });
    for (const host of MALFORMED) {
      for (const path of ['/v2', '/v2/account', '/dav/', '/__admin/scenario']) {
        const res = await getWithHost(path, host);
        expect(`${host} ${path}: ${res.status}`).toBe(`${host} ${path}: 400`);
        expect(res.body).not.toContain('evil.example/');
        expect(res.body).not.toContain('xlink:href');
      }
    }
    expect(MALFORMED.map((h) => [h, hostName(h)])).toEqual(MALFORMED.map((h) => [h, undefined]));
  });

  it('a malformed Host is refused even when every name is allowed (--allow-host "*")', async () => {
    running = await startMock({ seed: 'demo', allowedHosts: ['*'] });
    expect((await getWithHost('/v2', '[::1]evil.example')).status).toBe(400);
    expect((await getWithHost('/v2', 'evil.example:8080')).status).toBe(200);
  });

  it('a file entity on the pre-dispatch read path is refused too (it declines to the full path)', async () => {
    running = await startMock({ seed: 'demo' });
    const file = running.store.resolvePath('demo', ['Documents'])!;
    const contents = `/v2/containers/${file.id}/contents`;
    expect((await getWithHost(contents, '[::1]evil.example')).status).toBe(400);
    expect((await getWithHost(contents, '[::1]:8080')).status).toBe(200);
  });

  it('bracketed IPv6 literals, IPv4 addresses and loopback names with or without a port are answered and linked as sent', async () => {
    running = await startMock({ seed: 'demo' });
    for (const host of WELL_FORMED) {
      const res = await getWithHost('/v2', host);
      expect(`${host}: ${res.status}`).toBe(`${host}: 200`);
      expect(res.body).toContain(`xlink:href="http://${host}/v2/`);
    }
    expect(WELL_FORMED.map(hostName)).toEqual(['::1', '::1', '::1', '::ffff:127.0.0.1', '127.0.0.1', 'localhost']);
  });

  it('a name that is well formed but not ours is still 403 (DNS rebinding), naming the option that allows it', async () => {
    running = await startMock({ seed: 'demo' });
    const res = await getWithHost('/v2', 'evil.example:8080');
    expect(res.status).toBe(403);
    expect(res.body).toContain('--allow-host evil.example');
    // A name that starts like an address is a name.
    expect((await getWithHost('/v2', '127.0.0.1evil')).status).toBe(403);
  });
});
