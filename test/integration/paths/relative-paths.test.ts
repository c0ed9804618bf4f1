import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { fetchAs, killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** PUT a file through WebDAV, then read it back through /dav and /v2 (the download path that once answered 500). */
async function roundTrip(url: string): Promise<void> {
  expect((await fetchAs(`${url}/dav/Documents/kept.txt`, { method: 'PUT', body: 'kept bytes' })).status).toBe(201);
  const dav = await fetchAs(`${url}/dav/Documents/kept.txt`);
  expect(dav.status).toBe(200);
  expect(await dav.text()).toBe('kept bytes');
  const listing = await (
    await fetchAs(`${url}/dav/Documents/`, { method: 'PROPFIND', headers: { Depth: '1' } })
  ).text();
  expect(listing).toContain('kept.txt');
  const readme = await fetchAs(`${url}/dav/Documents/readme.txt`);
  expect(readme.status).toBe(200);
}

describe('relative paths resolve once, against the cwd (CLI) or baseDir (API)', () => {
  killServersAfterEach();
  const tmp = useTempDir('paths');

  it('serve --data ./state.json from another cwd keeps state there and downloads work', async () => {
    const server = await serve(['--data', './state.json'], { cwd: tmp.path });
    await roundTrip(server.url);
    expect(existsSync(join(tmp.path, 'state.json'))).toBe(true);
    expect(existsSync(join(tmp.path, 'state.json.blobs'))).toBe(true);
  });

  it('startMock({ baseDir, data: "state/x.json" }) resolves the state file against baseDir', async () => {
    mkdirSync(join(tmp.path, 'state'));
    const mock = await startMock({ baseDir: tmp.path, data: 'state/x.json' });
    try {
      await roundTrip(mock.url);
      expect(existsSync(join(tmp.path, 'state', 'x.json'))).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('a scenario path and its fixtures resolve against baseDir and the scenario file', async () => {
    mkdirSync(join(tmp.path, 'mine', 'fixtures'), { recursive: true });
    writeFileSync(join(tmp.path, 'mine', 'fixtures', 'a.txt'), 'from a fixture');
    writeFileSync(
      join(tmp.path, 'mine', 'one.json'),
      JSON.stringify({ seed: { tree: [{ file: 'a.txt', fixture: 'fixtures/a.txt' }] } }),
    );
    const mock = await startMock({ baseDir: tmp.path, scenario: 'mine/one.json' });
    try {
      expect(await (await fetchAs(`${mock.url}/dav/a.txt`)).text()).toBe('from a fixture');
    } finally {
      await mock.close();
    }
  });

  it('the shipped recording is found by name from any project (replay and verify)', async () => {
    const mock = await startMock({ baseDir: tmp.path, mode: { kind: 'replay', recording: 'example-session' } });
    try {
      const entry = await fetchAs(`${mock.url}/v2`);
      expect(entry.status).toBe(200);
    } finally {
      await mock.close();
    }
    const verify = new ServeProcess(['verify', '--recording', 'example-session'], { cwd: tmp.path });
    const exit = await verify.exited;
    expect(verify.stdout.join('\n')).toMatch(/verify: \d+ exchange\(s\)/);
    expect(exit.code).toBe(0);
  });
});
