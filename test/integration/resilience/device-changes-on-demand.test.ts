import { afterEach, describe, expect, it } from 'vitest';
import { ChangeRefusedError, connectMock, startMock, type JournalEntry, type RunningMock } from '../../../src/index.js';
import { CLI } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { ScriptedClient } from './scripted-client.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function started(): Promise<RunningMock> {
  mock = await startMock();
  return mock;
}

const at = (running: RunningMock, path: string) => running.store.resolvePath('demo', path.split('/').filter(Boolean));

function postChanges(running: RunningMock, body: unknown): Promise<Response> {
  return fetch(`${running.url}/__admin/changes`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

// The CLI steps each start a process (about half a second on a loaded machine).
describe('second-device changes on demand: admin API, startMock, connectMock, the CLI', { timeout: 60_000 }, () => {
  it('POST /__admin/changes applies a list in order, each through the domain, each a journal entry', async () => {
    const running = await started();
    const res = await postChanges(running, [
      { createFolder: '/Inbox' },
      { create: '/Inbox/a.txt', text: 'hello', mimeType: 'text/plain' },
      { move: '/hello.json', to: '/Inbox' },
      { metadata: '/Inbox/a.txt', set: { color: 'red' } },
      { metadata: '/Documents/readme.txt', remove: ['author'] },
      { tags: '/Photos/sunset.png', add: ['best'], remove: ['holiday'] },
    ]);
    expect(res.status).toBe(200);
    const { changes } = (await res.json()) as { changes: JournalEntry[] };
    expect(changes.map((e) => [e.method, e.path, e.status, e.committed, e.device])).toEqual([
      ['CREATE-FOLDER', '/Inbox', 201, true, 'second'],
      ['CREATE', '/Inbox/a.txt', 201, true, 'second'],
      ['MOVE', '/hello.json', 204, true, 'second'],
      ['METADATA', '/Inbox/a.txt', 204, true, 'second'],
      ['METADATA', '/Documents/readme.txt', 204, true, 'second'],
      ['TAGS', '/Photos/sunset.png', 204, true, 'second'],
    ]);
    expect(changes[0]!.change!.trigger).toBe('on demand (POST /__admin/changes)');
    expect(at(running, '/Inbox/hello.json')?.kind).toBe('file');
    expect(at(running, '/Inbox/a.txt')).toMatchObject({ bytes: 5, mimeType: 'text/plain', metadata: { color: 'red' } });
    expect(at(running, '/Documents/readme.txt')?.metadata).toEqual({});
    expect(at(running, '/Photos/sunset.png')?.tags).toEqual(['best']);
    // The journal holds them too, marked as the second device's.
    expect((await running.requests()).filter((e) => e.device === 'second')).toHaveLength(6);
  });

  it('answers 404 for a path that names nothing, 409 for a refusal, 400 for a malformed change, with the reason', async () => {
    const running = await started();
    const missing = await postChanges(running, { delete: '/Nope/x.txt' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(
      /^404 change refused: delete \/Nope\/x\.txt: nothing at \/Nope\/x\.txt in demo's tree/,
    );
    const taken = await postChanges(running, [{ createFolder: '/Fresh' }, { createFolder: '/Documents' }]);
    expect(taken.status).toBe(409);
    expect(await taken.text()).toMatch(
      /^409 change 2 of 2 refused: create-?folder \/Documents: .*already exists.*; the 1 before it applied/i,
    );
    expect(at(running, '/Fresh')?.kind).toBe('container');
    const malformed = await postChanges(running, { rename: '/hello.json' });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toMatch(/changes\[0\]\.to: is required with rename/);
    const triggered = await postChanges(running, { delete: '/hello.json', trigger: { delayMs: 5 } });
    expect(triggered.status).toBe(400);
    expect(at(running, '/hello.json')?.kind).toBe('file');
    // The refused ones are in the journal, not committed, with their reason.
    const refused = (await running.requests()).filter((e) => e.device === 'second' && !e.committed);
    expect(refused.map((e) => [e.method, e.status])).toEqual([
      ['DELETE', 404],
      ['CREATE-FOLDER', 422],
    ]);
  });

  it('mock.change (startMock) resolves with the entries and rejects with ChangeRefusedError', async () => {
    const running = await started();
    const [entry] = await running.change({ user: 'demo', rename: '/Documents/notes.md', to: 'old-notes.md' });
    expect(entry).toMatchObject({ method: 'RENAME', path: '/Documents/notes.md', committed: true, device: 'second' });
    expect(at(running, '/Documents/old-notes.md')?.kind).toBe('file');
    const refused = await running.change({ delete: '/Documents/notes.md' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChangeRefusedError);
    expect((refused as ChangeRefusedError).status).toBe(404);
  });

  it('connectMock(url).change does the same over HTTP, with the same error', async () => {
    const running = await started();
    const remote = connectMock(running.url);
    const entries = await remote.change([{ overwrite: '/hello.json', text: '{}' }, { delete: '/Music' }]);
    expect(entries.map((e) => e.method)).toEqual(['OVERWRITE', 'DELETE']);
    expect(at(running, '/Music')).toBeUndefined();
    expect(at(running, '/hello.json')?.bytes).toBe(2);
    const refused = await remote.change({ rename: '/Music', to: 'Sound' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChangeRefusedError);
    expect((refused as ChangeRefusedError).status).toBe(404);
    await remote.close();
  });

  it('csp-mock change applies a change to a running mock and prints its journal line; a refusal exits 1', async () => {
    const running = await started();
    const done = await runCommand(process.execPath, [
      CLI,
      'change',
      'rename',
      '/hello.json',
      '--to',
      'hi.json',
      '--url',
      running.url,
    ]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/RENAME \/hello\.json 204 .*user=demo device=second \(to hi\.json\)/);
    expect(at(running, '/hi.json')?.kind).toBe('file');
    const json = await runCommand(process.execPath, [
      CLI,
      'change',
      'json',
      '[{"tags": "/hi.json", "add": ["x"]}, {"quota": 1000}]',
      '--json',
      '--url',
      running.url,
    ]);
    expect(json.code).toBe(0);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as JournalEntry).method),
    ).toEqual(['TAGS', 'QUOTA']);
    const refused = await runCommand(process.execPath, [CLI, 'change', 'delete', '/nothing', '--url', running.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^csp-mock: change refused: delete \/nothing: nothing at \/nothing in demo's tree/);
  });

  it('a quota change shows in /v2/account and refuses an upload past it with 507', async () => {
    const running = await started();
    const client = new ScriptedClient(running.url);
    const used = running.store.storedBytes('demo');
    await running.change({ quota: used + 10 });
    const account = await client.expect(200, 'GET', '/v2/account');
    expect(account.body.toString()).toContain(`<allocated>${used + 10}</allocated>`);
    const root = await client.rootPath();
    const file = await client.createFile(root, 'big.bin');
    const tooBig = await client.send('PUT', `${file}/content`, { body: Buffer.alloc(11) });
    expect(tooBig.kind === 'answer' && [tooBig.status, tooBig.body.toString()]).toEqual([
      507,
      expect.stringMatching(/quota is used up/),
    ]);
    await client.expect(204, 'PUT', `${file}/content`, { body: Buffer.alloc(10) });
    // A reset goes back to the seed: no quota set, the default allocation.
    await running.reset();
    expect(running.store.storageAllocated('demo')).toBe(2_000_000_000);
  });
});
