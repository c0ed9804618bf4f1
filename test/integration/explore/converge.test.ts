// The oracle alone: a folder against a user's tree in a running mock (divergence, duplicates, loss), in code
// and as `csp-mock converge`.
import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectMock, startMock, type RunningMock } from '../../../src/index.js';
import { CLI } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { useTempDir } from '../../helpers/temp-dir.js';

let mock: RunningMock;
beforeAll(async () => void (mock = await startMock()));
afterAll(() => mock.close());
beforeEach(() => mock.reset());
const folder = useTempDir('converge');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Writes the demo user's tree into `dir`, as a sync client that works would leave it. */
async function mirror(dir: string): Promise<void> {
  const remote = connectMock(mock.url);
  const view = await remote.state({ user: 'demo' });
  type Node = (typeof view.users)[string]['tree'][number];
  const work: Array<{ node: Node; at: string }> = view.users['demo']!.tree.map((node) => ({ node, at: dir }));
  for (let item = work.pop(); item; item = work.pop()) {
    if ('container' in item.node) {
      const path = join(item.at, item.node.container);
      await mkdir(path, { recursive: true });
      for (const node of item.node.children) work.push({ node, at: path });
    } else {
      await mkdir(item.at, { recursive: true });
      await writeFile(join(item.at, item.node.file), await remote.content(item.node.id));
    }
  }
  await remote.close();
}

const put = (path: string, body: string) =>
  fetch(`${mock.url}/dav${path}`, {
    method: 'PUT',
    headers: { Authorization: `Basic ${btoa('demo:demo')}` },
    body,
  });

describe('mock.converge(dir)', () => {
  it('a folder holding the demo tree converges: same names, kinds, sizes and contents', async () => {
    await mirror(folder.path);
    const report = await mock.converge(folder.path);
    expect(report.findings).toEqual([]);
    expect(report.converged).toBe(true);
    expect(report.account.map((e) => e.path)).toContain('/Documents/Reports/q3-report.pdf');
  });

  it('a changed byte, a file only in the account and a folder only in the folder are divergence, each naming its path', async () => {
    await mirror(folder.path);
    await writeFile(join(folder.path, 'hello.json'), '{"hello":"World"}\n');
    await mkdir(join(folder.path, 'Extra'));
    expect((await put('/Music/song.txt', 'la la la')).status).toBe(201);
    const report = await mock.converge(folder.path);
    expect(report.converged).toBe(false);
    expect(report.findings.map((f) => [f.kind, f.paths])).toEqual([
      ['divergence', ['/Extra']],
      ['divergence', ['/Music/song.txt']],
      ['divergence', ['/hello.json']],
    ]);
    expect(report.findings[0]!.message).toBe('/Extra is only in the folder (a folder)');
    expect(report.findings[1]!.message).toMatch(/^\/Music\/song\.txt is only in demo's tree \(a file of 8 bytes/);
    expect(report.findings[2]!.message).toMatch(
      /in the folder but a file of 18 bytes \(sha256 [0-9a-f]{12}\) in demo's tree$/,
    );
  });

  it('the same content under a second name is a duplicate; a conflict copy is counted apart', async () => {
    await mirror(folder.path);
    for (const name of ['notes (2).md', 'notes (conflict).md']) {
      expect(
        (await put(`/Documents/${encodeURIComponent(name)}`, '# Notes\n\n- try the REST and /dav views\n')).status,
      ).toBe(201);
      await writeFile(join(folder.path, 'Documents', name), '# Notes\n\n- try the REST and /dav views\n');
    }
    const report = await mock.converge(folder.path);
    expect(report.findings.map((f) => [f.kind, f.paths])).toEqual([
      ['duplicates', ['/Documents/notes (2).md', '/Documents/notes.md']],
    ]);
    expect(report.conflictCopies).toEqual(['/Documents/notes (conflict).md']);
  });

  it('given a history, a written file whose content is nowhere is loss, naming what wrote it', async () => {
    await mirror(folder.path);
    const report = await mock.converge(folder.path, {
      expected: [
        { path: '/hello.json', sha256: sha256('{"hello":"world"}\n'), writtenBy: 'the seed' },
        { path: '/Documents/draft.txt', sha256: sha256('draft 1'), writtenBy: 'step 2: local create' },
      ],
    });
    expect(report.findings).toEqual([
      {
        kind: 'loss',
        message: expect.stringMatching(
          /^\/Documents\/draft\.txt as written by step 2: local create \(sha256 [0-9a-f]{12}\) is neither in the folder nor in demo's tree/,
        ),
        paths: ['/Documents/draft.txt'],
      },
    ]);
  });

  it('a symbolic link in the folder is never followed: a link to / is one entry of its own kind', async () => {
    await mirror(folder.path);
    await symlink('/', join(folder.path, 'Music', 'root'));
    const report = await mock.converge(folder.path);
    expect(report.findings.map((f) => f.message)).toEqual([
      '/Music/root is only in the folder (neither a file nor a folder (a link, a device, ...))',
    ]);
    expect(report.folder.filter((e) => e.path.startsWith('/Music/'))).toEqual([{ path: '/Music/root', kind: 'other' }]);
  });

  it('a folder that does not exist is an error naming it, not an empty tree', async () => {
    await expect(mock.converge(join(folder.path, 'nowhere'))).rejects.toThrow(/nowhere is not a folder/);
  });
});

describe('the same oracle over the admin API', () => {
  it('connectMock.converge reads the folder here and the tree from GET /__admin/tree, hashed by the mock', async () => {
    await mirror(folder.path);
    const remote = connectMock(mock.url);
    try {
      const report = await remote.converge(folder.path, { user: 'demo' });
      expect(report).toMatchObject({ converged: true, user: 'demo', findings: [] });
      await writeFile(join(folder.path, 'hello.json'), 'changed');
      expect((await remote.converge(folder.path)).findings.map((f) => f.paths)).toEqual([['/hello.json']]);
    } finally {
      await remote.close();
    }
    const tree = await fetch(`${mock.url}/__admin/tree?user=demo`).then((r) => r.json());
    expect(tree.user).toBe('demo');
    expect(tree.entries).toContainEqual({
      path: '/hello.json',
      kind: 'file',
      bytes: 18,
      sha256: sha256('{"hello":"world"}\n'),
    });
  });

  it('an unknown login is a 404 naming it (a refusal through connectMock, not "not a csp-mock"); a repeated or empty user is a 400', async () => {
    for (const user of ['nobody', '__proto__', 'constructor']) {
      const res = await fetch(`${mock.url}/__admin/tree?user=${user}`);
      expect([res.status, await res.text()]).toEqual([404, `404 no user "${user}"\n`]);
    }
    const remote = connectMock(mock.url);
    await expect(remote.converge(folder.path, { user: 'nobody' })).rejects.toThrow(
      /^GET \/__admin\/tree\?user=nobody answered 404: .*no user "nobody"$/,
    );
    await remote.close();
    for (const query of ['user=a&user=b', 'user='])
      expect(await fetch(`${mock.url}/__admin/tree?${query}`).then((r) => [r.status, r.text()])).toEqual([
        400,
        expect.anything(),
      ]);
    expect(await fetch(`${mock.url}/__admin/tree?user=`).then((r) => r.text())).toContain(
      'query parameter "user" must be a login name',
    );
  });
});

describe('csp-mock converge', () => {
  it('exits 0 with one line on a converged folder and 1 listing each difference', async () => {
    await mirror(folder.path);
    const run = (dir: string) =>
      runCommand(process.execPath, [CLI, 'converge', '--dir', dir, '--url', mock.url], { cwd: folder.path });
    const same = await run(folder.path);
    expect(same.stdout).toMatch(/^converged: .* and demo's tree hold the same 5 files and 4 folders\n$/);
    expect(same.code).toBe(0);
    await writeFile(join(folder.path, 'Music', 'extra.txt'), 'x');
    const differs = await run(folder.path);
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain('not converged: 1 finding between');
    expect(differs.stdout).toContain('  divergence: /Music/extra.txt is only in the folder (a file of 1 bytes');
    const missing = await run(join(folder.path, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^csp-mock: converge: .*nowhere is not a folder\n$/);
  });
});
