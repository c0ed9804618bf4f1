import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type JournalEntry, type RunningMock, type ScenarioDefinition } from '../../../src/index.js';
import { ScriptedClient } from './scripted-client.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function start(scenario: ScenarioDefinition): Promise<{ client: ScriptedClient; mock: RunningMock }> {
  mock = await startMock({ scenario });
  return { client: new ScriptedClient(mock.url), mock };
}

/** The REST path of a live object of demo's tree (the test's view, not the client's). */
function restPathOf(running: RunningMock, path: string): string {
  const node = running.store.resolvePath('demo', path.split('/').filter(Boolean));
  if (!node) throw new Error(`nothing at ${path}`);
  return `/v2/${node.kind === 'file' ? 'files' : 'containers'}/${node.id}`;
}

const summary = (entries: JournalEntry[]) =>
  entries.map(
    (e) => `${e.device ? 'second ' : ''}${e.method} ${e.status}${e.committed === false ? ' not committed' : ''}`,
  );

describe('a second device changes the account while the client works (scenario changes)', () => {
  it('a chunked upload survives a rename of its file after the 2nd chunk: all chunks land in the renamed file', async () => {
    const { client, mock } = await start({
      changes: [
        {
          user: 'demo',
          rename: '/Documents/upload.bin',
          to: 'renamed-elsewhere.bin',
          trigger: { match: { method: 'PUT', path: '/v2/files/*/content' }, nth: 2 },
        },
      ],
    });
    const documents = restPathOf(mock, '/Documents');
    const file = await client.createFile(documents, 'upload.bin');
    const blocks = ['a', 'b', 'c'].map((c) => Buffer.alloc(64, c));
    for (const [i, block] of blocks.entries()) {
      const seen = await client.putBlock(file, i * 64, block);
      expect(seen.kind === 'answer' && seen.status).toBe(204);
      // The change lands before the 2nd chunk's answer: the client's next request already meets it.
      if (i === 1) expect(await client.names(documents)).toContain('renamed-elsewhere.bin');
    }
    expect(await client.names(documents)).not.toContain('upload.bin');
    const content = await client.expect(200, 'GET', `${restPathOf(mock, '/Documents/renamed-elsewhere.bin')}/content`);
    expect(content.body.equals(Buffer.concat(blocks))).toBe(true);
    const journal = await mock.requests({ limit: 20 });
    const writes = journal.filter((e) => e.method !== 'GET');
    expect(summary(writes)).toEqual(['POST 201', 'PUT 204', 'PUT 204', 'second RENAME 204', 'PUT 204']);
    expect(writes[3]).toMatchObject({
      device: 'second',
      committed: true,
      user: 'demo',
      path: '/Documents/upload.bin',
      change: { kind: 'rename', detail: 'to renamed-elsewhere.bin' },
    });
    expect(writes[3]!.change!.trigger).toMatch(/^the 2nd request matching PUT \/v2\/files\/\*\/content/);
  });

  it('a delete between a listing and the download: the client lists the file, then its GET is 404', async () => {
    const { client, mock } = await start({
      changes: [
        {
          delete: '/Documents/notes.md',
          trigger: { match: { method: 'GET', path: '/v2/containers/*/contents' } },
        },
      ],
    });
    const documents = restPathOf(mock, '/Documents');
    const notes = restPathOf(mock, '/Documents/notes.md');
    expect(await client.names(documents)).toContain('notes.md');
    const download = await client.send('GET', `${notes}/content`);
    expect(download.kind === 'answer' && download.status).toBe(404);
    expect(await client.names(documents)).not.toContain('notes.md');
  });

  it('an overwrite between HEAD and GET: the ETag changes, and If-Match with the old one is refused', async () => {
    const { client, mock } = await start({
      changes: [
        {
          overwrite: '/hello.json',
          text: '{"hello":"again"}\n',
          trigger: { match: { method: 'HEAD', path: '/v2/files/*/content' } },
        },
      ],
    });
    const hello = restPathOf(mock, '/hello.json');
    const head = await client.expect(200, 'HEAD', `${hello}/content`);
    const get = await client.expect(200, 'GET', `${hello}/content`);
    expect(get.headers['etag']).toBeDefined();
    expect(get.headers['etag']).not.toBe(head.headers['etag']);
    expect(get.body.toString()).toBe('{"hello":"again"}\n');
    const stale = await client.send('GET', `${hello}/content`, {
      headers: { 'If-Match': String(head.headers['etag']) },
    });
    expect(stale.kind === 'answer' && stale.status).toBe(412);
  });

  it('a triggered change that cannot apply is a journal entry saying why, and the client goes on', async () => {
    const { client, mock } = await start({
      changes: [{ rename: '/No/such.txt', to: 'x.txt', trigger: { match: { method: 'GET', path: '/v2' } } }],
    });
    await client.expect(200, 'GET', '/v2');
    await client.expect(200, 'GET', '/v2');
    const device = (await mock.requests()).filter((e) => e.device === 'second');
    expect(device).toHaveLength(1);
    expect(device[0]).toMatchObject({ method: 'RENAME', status: 404, committed: false });
    expect(device[0]!.change!.error).toMatch(/nothing at \/No\/such\.txt in demo's tree/);
  });

  it('a change on a WebDAV-locked file is refused (the second device holds no lock token)', async () => {
    const { client, mock } = await start({
      changes: [{ overwrite: '/Documents/readme.txt', text: 'v2', trigger: { match: { method: 'GET', path: '/v2' } } }],
    });
    await client.expect(200, 'LOCK', '/dav/Documents/readme.txt', {
      headers: { 'Content-Type': 'application/xml', Timeout: 'Second-600' },
      body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    });
    await client.expect(200, 'GET', '/v2');
    const [change] = (await mock.requests()).filter((e) => e.device === 'second');
    expect(change).toMatchObject({ status: 423, committed: false });
    const readme = await client.expect(200, 'GET', `${restPathOf(mock, '/Documents/readme.txt')}/content`);
    expect(readme.body.toString()).toMatch(/^Welcome, demo/);
  });

  it('a delayed change happens after its delay; a reset arms it again', async () => {
    const { mock } = await start({ changes: [{ createFolder: '/Later', trigger: { delayMs: 1 } }] });
    // Waits for the change's journal entry (written once the change is committed), however long it takes.
    const arrived = async (): Promise<JournalEntry[]> => {
      for (;;) {
        const entries = await mock.requests();
        if (entries.length > 0) return entries;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    expect(await arrived()).toHaveLength(1);
    expect(mock.store.resolvePath('demo', ['Later'])?.kind).toBe('container');
    await mock.reset();
    expect(mock.store.resolvePath('demo', ['Later'])).toBeUndefined();
    const again = await arrived();
    expect(again.map((e) => [e.method, e.change?.trigger])).toEqual([
      ['CREATE-FOLDER', '1 ms after the scenario started'],
    ]);
    expect(mock.store.resolvePath('demo', ['Later'])?.kind).toBe('container');
  });

  it('a scenario change without a trigger is refused, naming the field', async () => {
    await expect(startMock({ scenario: { changes: [{ delete: '/hello.json' }] } })).rejects.toThrow(
      /changes\[0\]\.trigger: is required in a scenario/,
    );
    await expect(
      startMock({ scenario: { changes: [{ rename: '/hello.json', trigger: { delayMs: 5 } } as never] } }),
    ).rejects.toThrow(/changes\[0\]\.to: is required with rename/);
  });
});
