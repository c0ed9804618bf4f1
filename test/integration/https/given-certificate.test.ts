import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { makeCaCertificate, makeServerCertificate, type KeyPair } from '../../../src/tls/certificate-maker.js';
import { killServersAfterEach, ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { httpsRequest, SERVICE_HEADERS } from '../../helpers/tls.js';

describe('--cert and --key: your own certificate', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const dir = useTempDir('given-cert');
  let ownCa: KeyPair;
  let server: KeyPair;
  let other: KeyPair;
  // Three RSA keys made in JavaScript (node-forge): seconds of CPU, more on a busy machine than a hook's default 10 s.
  beforeAll(async () => {
    ownCa = await makeCaCertificate('a test CA');
    server = await makeServerCertificate(ownCa, ['localhost', '127.0.0.1']);
    other = await makeServerCertificate(ownCa, ['localhost']);
  }, 120_000);

  /** Writes the named files into the temp folder and runs serve there; the CA folder is one that does not exist. */
  async function serveWith(files: Record<string, string>, args: string[]): Promise<ServeProcess> {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir.path, name), text);
    return new ServeProcess(['serve', '--port', '0', '--data', 'state.json', ...args], {
      cwd: dir.path,
      env: { ...process.env, CSP_MOCK_CA_DIR: join(dir.path, 'no-ca-here') },
    });
  }

  /** One line on stderr, exit 1, and nothing written: no state file, no CA folder. */
  async function expectRefusedWith(p: ServeProcess, line: string, files: string[]): Promise<void> {
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(p.stderr.filter((l) => l !== '')).toEqual([line]);
    expect(p.stdout.filter((l) => l !== '')).toEqual([]);
    expect((await readdir(dir.path)).sort()).toEqual(files.sort());
  }

  it('serves HTTPS with a matching pair; a client trusting that CA reads /v2', async () => {
    const p = await serveWith({ 'cert.pem': server.certPem, 'key.pem': server.keyPem }, [
      '--cert',
      'cert.pem',
      '--key',
      'key.pem',
    ]);
    const line = await p.waitForLine(/listening on https:/, 30_000);
    const url = /listening on (\S+)/.exec(line)![1]!;
    expect(p.stdout).toContain('  TLS:      your certificate (--cert, --key)');
    const res = await httpsRequest(`${url}/v2`, { ca: ownCa.certPem, headers: SERVICE_HEADERS });
    expect(res.status).toBe(200);
    expect(existsSync(join(dir.path, 'no-ca-here'))).toBe(false);
  });

  it('a certificate that does not match its key: one clear line, exit 1, nothing written', async () => {
    const p = await serveWith({ 'cert.pem': server.certPem, 'key.pem': other.keyPem }, [
      '--cert',
      'cert.pem',
      '--key',
      'key.pem',
    ]);
    await expectRefusedWith(p, 'csp-mock: cannot start: the certificate cert.pem does not match the key key.pem', [
      'cert.pem',
      'key.pem',
    ]);
  });

  it('a file that is not a certificate: one clear line, exit 1, nothing written', async () => {
    const p = await serveWith({ 'cert.pem': 'hello, not PEM\n', 'key.pem': server.keyPem }, [
      '--cert',
      'cert.pem',
      '--key',
      'key.pem',
    ]);
    await expectRefusedWith(p, 'csp-mock: cannot start: the certificate cert.pem is not a PEM certificate', [
      'cert.pem',
      'key.pem',
    ]);
  });

  it('a key file holding a certificate: one clear line, exit 1, nothing written', async () => {
    const p = await serveWith({ 'cert.pem': server.certPem }, ['--cert', 'cert.pem', '--key', 'cert.pem']);
    await expectRefusedWith(p, 'csp-mock: cannot start: the key cert.pem is not a PEM private key', ['cert.pem']);
  });

  it('a missing file: one clear line naming it, exit 1, nothing written', async () => {
    const p = await serveWith({ 'key.pem': server.keyPem }, ['--cert', 'missing.pem', '--key', 'key.pem']);
    await expectRefusedWith(p, 'csp-mock: cannot start: cannot read the certificate missing.pem: no such file', [
      'key.pem',
    ]);
  });

  it('--cert without --key: one line, exit 1', async () => {
    const p = await serveWith({ 'cert.pem': server.certPem }, ['--cert', 'cert.pem']);
    await expectRefusedWith(p, 'csp-mock: --cert and --key go together: give both', ['cert.pem']);
  });

  it('startMock({ https: { cert, key } }) with a mismatched pair rejects before anything is made', async () => {
    const err = await startMock({
      data: join(dir.path, 'state.json'),
      https: { cert: server.certPem, key: other.keyPem },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the certificate does not match the key');
    expect(await readdir(dir.path)).toEqual([]);
  });
});
