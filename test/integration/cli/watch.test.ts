// serve --watch: an edited scenario file applies its faults at once and leaves the state alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchAs } from '../../helpers/cli.js';
import { serveHere, stopListeningAfterEach } from './in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'csp-mock-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve --watch', { timeout: 30_000 }, () => {
  stopListeningAfterEach();

  it('reloads faults and latency when the file changes; the state stays; a changed seed gets a hint to reset', async () => {
    const file = join(dir, 'live.json');
    writeFileSync(file, JSON.stringify({ faults: [] }));
    const server = await serveHere(['--scenario', file, '--watch']);
    await server.waitForLine(/^watch: watching /);
    expect((await fetchAs(`${server.url}/dav/kept.txt`, { method: 'PUT', body: 'still here' })).status).toBe(201);
    expect((await fetchAs(`${server.url}/v2/tags`)).status).toBe(200);

    writeFileSync(
      file,
      JSON.stringify({
        faults: [{ name: 'now-failing', match: { method: 'GET', path: '/v2/tags' }, respond: { status: 503 } }],
      }),
    );
    await server.waitForLine(/^watch: reloaded .*live\.json: 1 fault rule\(s\); state untouched/);
    expect((await fetchAs(`${server.url}/v2/tags`)).status).toBe(503);
    expect(await (await fetchAs(`${server.url}/dav/kept.txt`)).text()).toBe('still here');

    writeFileSync(file, JSON.stringify({ seed: { tree: [] }, faults: [] }));
    await server.waitForLine(/^watch: the seed changed; .*csp-mock reset/);
    expect((await fetchAs(`${server.url}/v2/tags`)).status).toBe(200);
    expect(await (await fetchAs(`${server.url}/dav/kept.txt`)).text()).toBe('still here');

    writeFileSync(file, '{ "faults": [ }');
    await server.waitForLine(/^watch: .*not valid JSON: line 1, column \d+.*the previous version stays active/);
  });
});
