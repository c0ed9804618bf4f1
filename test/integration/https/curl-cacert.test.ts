import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killServersAfterEach } from '../../helpers/cli.js';
import { requireProgram, runProgram } from '../../peers/peer-process.js';
import { readyFact, serveHttps, useCaFolder } from '../../helpers/tls.js';

const curl = requireProgram('curl');

describe('serve --https, reached with curl --cacert', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const ca = useCaFolder();

  it('serves /v2 over HTTPS to curl trusting only the local CA, with https links, and says so in its ready lines', async () => {
    const { server, url } = await serveHttps(['--https'], ca.path);
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(readyFact(server, 'REST')).toBe(`${url}/v2`);
    expect(readyFact(server, 'TLS')).toBe('certificate for localhost, ::1, 127.0.0.1, signed by the local CA');
    expect(readyFact(server, 'trust')).toContain(join(ca.path, 'ca.pem'));

    const cacert = join(ca.path, 'ca.pem');
    const ok = await runProgram(curl, [
      '-sS',
      '--fail',
      '--cacert',
      cacert,
      '-u',
      'demo:demo',
      '-H',
      'X-Client-Specification: 2',
      `${url}/v2`,
    ]);
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toContain(`xlink:href="${url}/v2/containers/`);
    expect(ok.output).not.toMatch(/href="http:/);

    // The same certificate answers for localhost.
    const port = new URL(url).port;
    const byName = await runProgram(curl, [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--cacert',
      cacert,
      `https://localhost:${port}/v2`,
    ]);
    expect(byName.output).toBe('401');
  });

  it('is refused by curl without the CA (no system store trusts it)', async () => {
    const { url } = await serveHttps(['--https'], ca.path);
    // An empty CA path: curl trusts nothing but what it is given.
    const refused = await runProgram(curl, ['-sS', '--capath', '/nonexistent', '--cacert', '/dev/null', `${url}/v2`]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/certificate/i);
  });

  it('answers plain HTTP on the HTTPS port with an error, never with data', async () => {
    const { url } = await serveHttps(['--https'], ca.path);
    const plain = await runProgram(curl, ['-sS', '-u', 'demo:demo', url.replace('https:', 'http:') + '/v2']);
    expect(plain.output).not.toContain('<cloud');
  });
});
