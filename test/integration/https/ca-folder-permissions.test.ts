import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { killServersAfterEach } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { serveHttps } from '../../helpers/tls.js';

const modeOf = async (path: string): Promise<string> => ((await stat(path)).mode & 0o777).toString(8);

describe("the local CA's folder: private, and the key never shown", { timeout: 60_000 }, () => {
  killServersAfterEach();
  const dir = useTempDir('ca-perms');

  it('is made 0700 with the CA key and the server keys 0600, the CA certificate 0644', async () => {
    const caDir = join(dir.path, 'config', 'csp-mock');
    const mock = await startMock({ https: { caDir } });
    await mock.close();
    expect(await modeOf(caDir)).toBe('700');
    const files = (await readdir(caDir)).sort();
    expect(files).toEqual(['ca-key.pem', 'ca.pem', expect.stringMatching(/^server-[0-9a-f]{16}\.pem$/)]);
    expect(await modeOf(join(caDir, 'ca-key.pem'))).toBe('600');
    expect(await modeOf(join(caDir, files[2]!))).toBe('600');
    expect(await modeOf(join(caDir, 'ca.pem'))).toBe('644');
  });

  it('refuses a folder other users can open, saying how to fix it, and writes nothing into it', async () => {
    const caDir = join(dir.path, 'open');
    await mkdir(caDir, { mode: 0o755 });
    await chmod(caDir, 0o755);
    const err = await startMock({ https: { caDir } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `the local CA folder ${caDir} is open to other users (mode 0755): run "chmod 700 ${caDir}"`,
    );
    expect(await readdir(caDir)).toEqual([]);
  });

  it('refuses a CA key file others may read', async () => {
    const caDir = join(dir.path, 'ca');
    await (await startMock({ https: { caDir } })).close();
    await chmod(join(caDir, 'ca-key.pem'), 0o644);
    const err = await startMock({ https: { caDir } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `${join(caDir, 'ca-key.pem')} is readable by other users (mode 0644): run "chmod 600 ${join(caDir, 'ca-key.pem')}"`,
    );
  });

  it('a broken CA key file is named, never replaced', async () => {
    const caDir = join(dir.path, 'broken');
    await mkdir(caDir, { mode: 0o700 });
    await writeFile(join(caDir, 'ca-key.pem'), 'not a key\n', { mode: 0o600 });
    const err = await startMock({ https: { caDir } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `the local CA (${join(caDir, 'ca-key.pem')}) is unusable: it must hold a private key and a certificate (PEM); move it away and a new one is made`,
    );
    expect(await readdir(caDir)).toEqual(['ca-key.pem']);
  });

  it('neither the ready lines nor the request log nor RunningMock carry a private key', async () => {
    const caDir = join(dir.path, 'quiet');
    const { server } = await serveHttps(['--https'], caDir);
    expect(server.stdout.join('\n')).not.toMatch(/PRIVATE KEY|BEGIN/);
    const mock = await startMock({ https: { caDir } });
    expect(JSON.stringify(mock.https)).not.toMatch(/PRIVATE KEY/);
    expect(JSON.stringify(mock.options)).not.toMatch(/PRIVATE KEY/);
    await mock.close();
  });
});
