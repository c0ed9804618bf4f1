// connectMock: the test-lifecycle surface of a mock running elsewhere, over its admin API.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMock, createApp, MockConnectionError, startMock, type RunningMock } from '../../../src/index.js';
import { fetchAs } from '../../helpers/cli.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('connectMock', () => {
  it('switches scenario, reads the filtered journal and the state, resets, with the admin token', async () => {
    mock = await startMock({ adminToken: 'tok', journalBodies: 256 });
    const remote = connectMock(mock.url, { adminToken: 'tok' });
    expect(await remote.useScenario('tag-objects-500')).toMatchObject({ name: 'tag-objects-500', faults: 1 });
    expect((await remote.scenario()).name).toBe('tag-objects-500');
    expect((await fetchAs(`${mock.url}/v2/tags/important/objects`)).status).toBe(500);
    expect((await fetchAs(`${mock.url}/dav/Documents/readme.txt`)).status).toBe(200);

    const failed = await remote.requests({ status: 500 });
    expect(failed.map((e) => e.path)).toEqual(['/v2/tags/important/objects']);
    expect(failed[0]!.fault).not.toBeNull();
    const dav = await remote.requests({ path: '/dav/**', method: 'get' });
    expect(dav).toHaveLength(1);
    expect(dav[0]!.responseBody).toMatchObject({ truncated: false, text: expect.stringContaining('Welcome, demo') });
    expect(dav[0]!.headers['authorization']).toBe('[removed]');
    expect(await remote.requests({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);

    const state = await remote.state({ user: 'demo' });
    expect(state.users['demo']!.tree.map((n) => ('container' in n ? n.container : n.file))).toContain('Documents');
    await remote.reset();
    expect(await remote.requests()).toEqual([]);
    await remote.close();
    await expect(remote.reset()).rejects.toThrow(/disconnected/);
  });

  it('refuses clearly: no token, nothing listening', async () => {
    mock = await startMock({ adminToken: 'tok' });
    await expect(connectMock(mock.url).scenario()).rejects.toThrow(/requires an admin token/);
    await expect(connectMock('http://127.0.0.1:9').reset()).rejects.toBeInstanceOf(MockConnectionError);
  });

  it('round-trips the state: the seed export is a scenario that rebuilds the same trees and contents', async () => {
    mock = await startMock();
    await fetchAs(`${mock.url}/dav/Documents/binary.bin`, { method: 'PUT', body: new Uint8Array([0, 1, 2, 255]) });
    const seed = await connectMock(mock.url).seed();
    // A file's content comes before its tags and metadata, as in a hand-written seed (an export is a file people keep and diff).
    const exported = seed.seed as { trees: Record<string, Array<{ container?: string; children?: object[] }>> };
    const documents = exported.trees['demo']!.find((node) => node.container === 'Documents')!;
    const readme = documents.children!.find((node) => (node as { file?: string }).file === 'readme.txt')!;
    expect(Object.keys(readme)).toEqual(['file', 'mimeType', 'text', 'tags', 'metadata']);
    const rebuilt = await createApp({ scenario: seed });
    try {
      const strip = (view: unknown): string => JSON.stringify(view).replace(/"(id|rootId)":"[^"]*"/g, '');
      const original = await (await fetch(`${mock.url}/__admin/state`)).json();
      const { stateView } = await import('../../../src/admin/state-view.js');
      expect(strip(stateView(rebuilt.store, 'default'))).toEqual(strip({ ...original, scenario: 'default' }));
    } finally {
      await rebuilt.close();
    }
  });

  it('sends a GET or a PUT once more when the server closed the kept-alive connection under it', async () => {
    mock = await startMock();
    // In front of the mock: the first connection carries one request; the next one on it finds it closed, as when
    // the server times out an idle kept-alive connection while a busy client sends on it. Later ones live on.
    const arrived: string[] = [];
    const sockets = new Set<Socket>();
    const closer = createServer((client) => {
      const first = sockets.size === 0;
      sockets.add(client);
      const upstream = connect(mock!.port, '127.0.0.1');
      let requests = 0;
      client.on('data', (chunk: Buffer) => {
        const line = /^([A-Z]+) (\S+) HTTP/.exec(chunk.toString('latin1'));
        if (line) {
          requests += 1;
          const cut = first && requests > 1;
          arrived.push(`${line[1]} ${line[2]}${cut ? ' (closed)' : ''}`);
          if (cut) return void (client.destroy(), upstream.destroy());
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    try {
      const remote = connectMock(`http://127.0.0.1:${(closer.address() as AddressInfo).port}`);
      // Which kept-alive connection a call goes out on is fetch's choice: several calls, each answered, and every
      // one that found its connection closed was sent once more, at once.
      for (let i = 0; i < 4; i++) {
        expect((await remote.scenario()).name).toBe('default');
        expect((await remote.useScenario('default')).name).toBe('default');
      }
      const closed = arrived.flatMap((line, at) => (line.endsWith(' (closed)') ? [at] : []));
      expect(closed.length).toBeGreaterThan(0);
      for (const at of closed) expect(`${arrived[at + 1]} (closed)`).toBe(arrived[at]);
      expect(arrived.filter((line) => !line.endsWith(' (closed)'))).toEqual(
        Array.from({ length: 4 }, () => ['GET /__admin/scenario', 'PUT /__admin/scenario']).flat(),
      );
      await remote.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => closer.close(resolve));
    }
  });
});
