// Mono (the runtime the service's C# sync client runs on under Linux) against the mock over HTTPS: its TLS
// (BoringSSL-based btls) refuses the local CA's critical name constraints; the compat CA works for localhost.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { useCaFolder } from '../helpers/tls.js';
import { requireProgram, runProgram } from './peer-process.js';

const SOURCE = fileURLToPath(new URL('./mono/GetEntry.cs', import.meta.url));

describe('Mono against the two CAs', { timeout: 120_000 }, () => {
  const ca = useCaFolder();
  let work: string;
  let program: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'csp-mock-mono-'));
    program = join(work, 'GetEntry.exe');
    const compiled = await runProgram(requireProgram('mcs', 'mono-mcs'), [`-out:${program}`, SOURCE]);
    expect(compiled.code, compiled.output).toBe(0);
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Trusts `caPem` alone in a fresh Mono user store (cert-sync --user), then reads the entry document at each URL. */
  async function readWithMono(caPem: string, urls: string[]): Promise<string[]> {
    const home = await mkdtemp(join(work, 'home-'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    await mkdir(env.XDG_CONFIG_HOME);
    await writeFile(join(home, 'ca.pem'), caPem);
    const synced = await runProgram(
      requireProgram('cert-sync', 'ca-certificates-mono'),
      ['--user', join(home, 'ca.pem')],
      { env },
    );
    expect(synced.output).toContain('1 new root certificates were added');
    const mono = requireProgram('mono', 'mono-runtime');
    const out: string[] = [];
    for (const url of urls) out.push((await runProgram(mono, [program, url], { env })).output.trim());
    return out;
  }

  it('the compat CA (https: { compatCa: true }): Mono reads https://localhost:<port>/v2; 127.0.0.1 it cannot match against the IP entry', async () => {
    const mock = await startMock({ https: { caDir: ca.path, compatCa: true } });
    try {
      const port = mock.https!.port;
      const [byName, byAddress] = await readWithMono(mock.https!.ca!, [
        `https://localhost:${port}/v2`,
        `https://127.0.0.1:${port}/v2`,
      ]);
      expect(byName).toBe('200 <cloud');
      expect(byAddress).toMatch(/^failed: .*CERTIFICATE_VERIFY_FAILED/);
    } finally {
      await mock.close();
    }
  });

  it('the local CA (the default): Mono stops on its name constraints with UNSUPPORTED_CONSTRAINT_TYPE', async () => {
    const mock = await startMock({ https: { caDir: ca.path } });
    try {
      const [byName] = await readWithMono(mock.https!.ca!, [`https://localhost:${mock.https!.port}/v2`]);
      expect(byName).toMatch(/^failed: .*UNSUPPORTED_CONSTRAINT_TYPE/);
    } finally {
      await mock.close();
    }
  });
});
