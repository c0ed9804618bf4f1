import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, killServersAfterEach, serve } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

killServersAfterEach();

/**
 * `csp-mock ARGS` under a real pseudo-terminal (util-linux `script`): its stdout and stderr both go to
 * the terminal, and come back here as the terminal shows them. Stopped (its process group) once `until` is seen.
 */
function inTerminal(args: string[], cwd: string, until: RegExp): Promise<string> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = '';
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    const take = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (until.test(seen)) process.kill(-child.pid!, 'SIGTERM');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', () => resolve(seen));
  });
}

describe('serve draws a progress line on a terminal, and none elsewhere', () => {
  const tmp = useTempDir('progress-cli');

  it(
    'a generated account under a terminal: one line rewritten in place (\\r and an erase), then a final line',
    {
      timeout: 60_000,
    },
    async () => {
      const seen = await inTerminal(
        ['serve', '--port', '0', '--generate', 'files=6000'],
        tmp.path,
        /listening on http/,
      );
      const drawn = seen.indexOf('\r\x1b[Kcsp-mock: generating accounts: ');
      const ended = seen.search(/\r\x1b\[Kcsp-mock: generated [\d,]+ objects in \d+\.\d s, [\d,]+ objects\/s\r?\n/);
      expect(drawn).toBeGreaterThanOrEqual(0);
      expect(ended).toBeGreaterThan(drawn);
      expect(seen).toMatch(/generating accounts: [\d,]+ of [\d,]+ objects \(\d+%\)/);
      // The ready lines follow the finished line, each on a line of its own.
      expect(seen.indexOf('listening on http')).toBeGreaterThan(ended);
    },
  );

  it(
    'with stderr piped (not a terminal) it writes no progress and no carriage return',
    { timeout: 60_000 },
    async () => {
      const server = await serve(['--generate', 'files=6000'], { cwd: tmp.path });
      const stderr = server.stderr.join('\n');
      expect(stderr).not.toContain('\r');
      expect(stderr).not.toMatch(/generat/);
    },
  );

  it('--quiet under a terminal draws no progress line either', { timeout: 60_000 }, async () => {
    const seen = await inTerminal(
      ['serve', '--port', '0', '--quiet', '--generate', 'files=6000'],
      tmp.path,
      /listening on http/,
    );
    expect(seen).toMatch(/listening on http/);
    expect(seen).not.toMatch(/generating accounts|\x1b\[K/);
  });
});
