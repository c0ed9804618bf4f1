import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killServersAfterEach, ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { readyFact } from '../../helpers/tls.js';

describe('HTTPS from the environment and the config file', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const dir = useTempDir('https-config');

  const start = async (args: string[], env: NodeJS.ProcessEnv, cwd = dir.path): Promise<ServeProcess> => {
    const p = new ServeProcess(['serve', '--port', '0', ...args], { cwd, env: { ...process.env, ...env } });
    await p.waitForLine(/listening on /, 30_000);
    return p;
  };

  it('CSP_MOCK_HTTPS=true and CSP_MOCK_CA_DIR serve HTTPS with the CA there', async () => {
    const caDir = join(dir.path, 'env-ca');
    const p = await start([], { CSP_MOCK_HTTPS: 'true', CSP_MOCK_CA_DIR: caDir });
    expect(p.stdout[0]).toMatch(/^csp-mock serve listening on https:\/\/127\.0\.0\.1:\d+$/);
    expect(readyFact(p, 'trust')).toContain(join(caDir, 'ca.pem'));
  });

  it('"https-port" and "caDir" in csp-mock.config.json (relative to the file) add HTTPS beside HTTP', async () => {
    const project = join(dir.path, 'project');
    await mkdir(project);
    await writeFile(join(project, 'csp-mock.config.json'), JSON.stringify({ 'https-port': 0, caDir: 'tls/ca' }));
    const env: NodeJS.ProcessEnv = {};
    const p = await start([], env, project);
    expect(p.stdout[0]).toMatch(/listening on http:\/\//);
    expect(readyFact(p, 'HTTPS')).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(join(project, 'tls', 'ca', 'ca.pem'))).toBe(true);
  });
});
