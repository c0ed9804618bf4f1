import { chmod, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { runProgram } from '../../peers/peer-process.js';

const ca = (caDir: string, ...args: string[]) =>
  runProgram(process.execPath, [CLI, 'ca', ...args], { env: { CSP_MOCK_CA_DIR: caDir } });

describe('csp-mock ca', { timeout: 60_000 }, () => {
  const dir = useTempDir('ca-command');

  it('makes the CA when missing and prints where its certificate is and how to trust it', async () => {
    const caDir = join(dir.path, 'ca');
    const first = await ca(caDir);
    expect(first.code, first.output).toBe(0);
    const file = join(caDir, 'ca.pem');
    const lines = first.output.split('\n');
    expect(lines[0]).toBe(`csp-mock local CA: ${file} (made now)`);
    expect(first.output).toMatch(/^ {2}SHA-256: {5}([0-9A-F]{2}:){31}[0-9A-F]{2}$/m);
    expect(first.output).toContain(`its key:     ${join(caDir, 'ca-key.pem')} (readable by you only`);
    for (const how of [
      `curl --cacert ${file} https://localhost:PORT/v2   (PORT: the port serving HTTPS)`,
      `NODE_EXTRA_CA_CERTS=${file} node client.js`,
      `rclone --ca-cert ${file}`,
      'update-ca-certificates',
      'security add-trusted-cert',
      'certutil -user -addstore Root',
      'network_security_config.xml',
      'Certificate Trust Settings',
    ])
      expect(first.output).toContain(how);
    expect(first.output).not.toMatch(/PRIVATE KEY/);
    expect(await readFile(file, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);

    const again = await ca(caDir);
    expect(again.output.split('\n')[0]).toBe(`csp-mock local CA: ${file}`);
  });

  it('--path prints the certificate file alone, for scripts', async () => {
    const caDir = join(dir.path, 'ca');
    const run = await ca(caDir, '--path');
    expect(run.code).toBe(0);
    expect(run.output).toBe(`${join(caDir, 'ca.pem')}\n`);
  });

  it('a CA folder other users can open is one line and exit 1', async () => {
    const open = join(dir.path, 'shared');
    await mkdir(open);
    await chmod(open, 0o775);
    const run = await ca(open);
    expect(run.code).toBe(1);
    expect(run.output).toBe(
      `csp-mock: the local CA folder ${open} is open to other users (mode 0775): run "chmod 700 ${open}"\n`,
    );
    expect(await readdir(open)).toEqual([]);
  });
});
