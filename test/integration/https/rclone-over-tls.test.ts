import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { rcloneRemote } from '../../peers/rclone-remote.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';

describe('rclone (webdav backend) over TLS with --ca-cert', { timeout: 60_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock;
  let work: string;
  beforeEach(async () => {
    mock = await startMock({ seed: 'empty', https: { caDir: ca.path } });
    work = await mkdtemp(join(tmpdir(), 'csp-mock-rclone-tls-'));
  });
  afterEach(async () => {
    await mock.close();
    await rm(work, { recursive: true, force: true });
  });

  it(
    'copies a file in, lists it and copies it back byte for byte; without --ca-cert it is refused',
    { timeout: 120_000 },
    async () => {
      const remote = await rcloneRemote(mock.url, work, mock.https!.caFile!);
      const trusted = remote.run;
      const local = join(work, 'local');
      await mkdir(local);
      const bytes = randomBytes(300_000);
      await writeFile(join(local, 'report 2026.bin'), bytes);

      const copied = await trusted('copy', local, 'csp:inbox');
      expect(copied.code, copied.output).toBe(0);
      const listed = await trusted('lsf', 'csp:inbox');
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output.trim().split('\n')).toEqual(['report 2026.bin']);

      const back = join(work, 'back');
      const fetched = await trusted('copy', 'csp:inbox', back);
      expect(fetched.code, fetched.output).toBe(0);
      expect((await readFile(join(back, 'report 2026.bin'))).equals(bytes)).toBe(true);

      // The service saw the same bytes (read over HTTPS with the CA).
      const served = await httpsRequest(`${mock.url}/dav/inbox/report%202026.bin`, {
        ca: mock.https!.ca!,
        headers: SERVICE_HEADERS,
      });
      expect(served.status).toBe(200);

      const refused = await remote.runWithoutCaCert('lsf', 'csp:inbox');
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(/certificate/i);
    },
  );
});
