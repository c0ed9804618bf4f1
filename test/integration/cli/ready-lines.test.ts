// What the ready lines and a switch say about the state: a --data state new or resumed (with its objects), a
// generated account as generated, and a switch to an unseeded scenario that the tree stays until a reset.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchAs } from '../../helpers/cli.js';
import { cliHere, serveHere as serve, stopListeningAfterEach } from './in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

describe('the ready lines describe the state', { timeout: 60_000 }, () => {
  stopListeningAfterEach();
  const temp = useTempDir('ready-lines');

  it('a --data state says new the first time and resumed, with its objects, after a restart', async () => {
    const data = join(temp.path, 'state.json');
    const first = await serve(['--data', data], { cwd: temp.path });
    expect(first.stdout.find((l) => l.includes('state:'))).toMatch(
      /state: +\S+state\.json \(new, \d+ object\(s\) from the seed\), bytes in/,
    );
    await fetchAs(`${first.url}/dav/added.txt`, { method: 'PUT', body: 'x' });
    await first.stop();
    const second = await serve(['--data', data], { cwd: temp.path });
    const resumed = /\(resumed, (\d+) object\(s\)\)/.exec(second.stdout.find((l) => l.includes('state:'))!);
    const created = /\(new, (\d+) object/.exec(first.stdout.find((l) => l.includes('state:'))!);
    expect(Number(resumed![1])).toBe(Number(created![1]) + 1);
  });

  it('--generate prints what was generated for each user, not only the demo login', async () => {
    const server = await serve(['--generate', 'files=40,folders=4,seed=3']);
    expect(server.stdout.find((l) => l.includes('account:'))).toMatch(
      /account: +generated for each user: 40 files, 4 folders, seed 3 \(44 objects, content made on read\)/,
    );
  });

  it('scenario use default after a seeded scenario says the tree stays until a reset', async () => {
    const server = await serve(['--scenario', 'empty']);
    const switched = await cliHere(['scenario', 'use', 'default'], { env: { CSP_MOCK_URL: server.url } });
    expect(switched.stdout.split('\n').at(-2)).toBe(
      `  the state stays as empty's seed left it; "csp-mock reset" puts back default's starting state`,
    );
  });
});
