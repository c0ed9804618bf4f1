import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { makeServerCertificate } from '../../../src/tls/certificate-maker.js';
import { openLocalCa } from '../../../src/tls/local-ca.js';
import { requireProgram, runProgram } from '../../peers/peer-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const curl = requireProgram('curl');

describe('the local CA is name-constrained: a leaked key cannot vouch for a public name', { timeout: 60_000 }, () => {
  const dir = useTempDir('ca-names');
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('its certificate permits only local, reserved and private names, as a critical extension', async () => {
    const ca = await openLocalCa(join(dir.path, 'ca'));
    const cert = forge.pki.certificateFromPem(ca.certPem);
    const ext = cert.getExtension('nameConstraints') as {
      critical: boolean;
      permittedSubtrees: Array<{ type: number; value: string }>;
      excludedSubtrees: unknown[];
    };
    expect(ext.critical).toBe(true);
    const dns = ext.permittedSubtrees.filter((s) => s.type === 2).map((s) => s.value);
    expect(dns).toEqual([
      'localhost',
      'test',
      'example',
      'invalid',
      'example.com',
      'example.net',
      'example.org',
      'local',
      'internal',
      'home.arpa',
    ]);
    expect(ext.permittedSubtrees.filter((s) => s.type === 7)).toHaveLength(8);
    expect(cert.getExtension('basicConstraints')).toMatchObject({ cA: true, pathLenConstraint: 0, critical: true });
  });

  /** Serves a certificate the local CA signs for `names` (as a stolen key could), and asks curl at `name`. */
  async function curlAt(name: string, names: string[]): Promise<{ code: number | null; output: string }> {
    const ca = await openLocalCa(join(dir.path, 'ca'));
    const pair = await makeServerCertificate(ca, names);
    server = createServer({ cert: pair.certPem, key: pair.keyPem }, (_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return runProgram(curl, [
      '-sS',
      '--cacert',
      ca.certFile,
      '--resolve',
      `${name}:${port}:127.0.0.1`,
      `https://${name}:${port}/`,
    ]);
  }

  it('curl accepts a certificate it signs for a permitted name (files.example.test)', async () => {
    const ok = await curlAt('files.example.test', ['files.example.test']);
    expect(ok.output).toBe('reached');
  });

  it('curl refuses a certificate it signs for a public name (cloud.mezeo.com), though the signature is good', async () => {
    const refused = await curlAt('cloud.mezeo.com', ['cloud.mezeo.com']);
    expect(refused.code).toBe(60);
    expect(refused.output).toMatch(/permitted subtree violation|name constraint/i);
  });

  it('startMock with a public URL on a public name says to bring your own certificate, and makes none', async () => {
    const caDir = join(dir.path, 'untouched');
    const err = await startMock({ https: { caDir }, publicUrl: 'https://cloud.mezeo.com' }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /^the local CA signs only for localhost, \*\.localhost, \*\.test, .* and link-local addresses, not cloud\.mezeo\.com: give your own certificate \(--cert FILE --key FILE\)$/,
    );
    expect(existsSync(caDir)).toBe(false);
  });
});
