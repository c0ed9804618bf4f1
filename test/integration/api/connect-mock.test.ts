// connectMock: the test-lifecycle surface of a mock running elsewhere, over its admin API.
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
});
