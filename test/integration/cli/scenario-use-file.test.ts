// `csp-mock scenario use PATH` and `connectMock(url).useScenario(PATH)` against a mock served from another folder
// (its baseDir, fixed at its start): the file is read by the caller and sent inline (extends merged, fixtures' bytes included).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMock } from '../../../src/index.js';
import { fetchAs } from '../../helpers/cli.js';
import { cliHere, serveHere, stopListeningAfterEach } from './in-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-use-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where the mock runs: a folder of its own, without the client's scenario files. */
const serverDir = join(scratch, 'server');
/** The client's project: scenarios/after-sync.json, a parent it extends, and a binary fixture. */
const clientDir = join(scratch, 'client');
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01]);
mkdirSync(serverDir, { recursive: true });
mkdirSync(join(clientDir, 'scenarios', 'fixtures'), { recursive: true });
writeFileSync(join(clientDir, 'scenarios', 'fixtures', 'logo.bin'), LOGO);
writeFileSync(
  join(clientDir, 'scenarios', 'base.json'),
  JSON.stringify({
    faults: [{ name: 'tags-down', match: { method: 'GET', path: '/v2/tags' }, respond: { status: 503 } }],
  }),
);
writeFileSync(
  join(clientDir, 'scenarios', 'after-sync.json'),
  JSON.stringify({
    description: 'the state after a sync',
    extends: './base.json',
    seed: {
      trees: {
        demo: [
          {
            container: 'Synced',
            children: [
              { file: 'notes.txt', text: 'synced notes' },
              { file: 'logo.bin', fixture: 'fixtures/logo.bin', mimeType: 'application/octet-stream' },
            ],
          },
        ],
      },
    },
  }),
);
writeFileSync(
  join(clientDir, 'scenarios', 'escapes.json'),
  JSON.stringify({ seed: { trees: { demo: [{ file: 'x', fixture: '../../outside.txt' }] } } }),
);
writeFileSync(join(scratch, 'outside.txt'), 'not for the mock');

function cli(args: string[]) {
  return cliHere(args, { cwd: clientDir });
}

async function expectAfterSync(url: string): Promise<void> {
  expect(await (await fetchAs(`${url}/dav/Synced/notes.txt`)).text()).toBe('synced notes');
  const logo = await fetchAs(`${url}/dav/Synced/logo.bin`);
  expect(Buffer.from(await logo.arrayBuffer()).equals(LOGO)).toBe(true);
  expect((await fetchAs(`${url}/v2/tags`)).status).toBe(503);
  expect((await fetchAs(`${url}/dav/Documents/readme.txt`)).status).toBe(404);
}

describe('switching a served mock to a scenario file of the client', { timeout: 60_000 }, () => {
  stopListeningAfterEach();

  it('scenario use ./scenarios/after-sync.json sends the file with its extends and fixture, which the mock could not read', async () => {
    const server = await serveHere([], { cwd: serverDir });
    const used = await cli(['scenario', 'use', './scenarios/after-sync.json', '--url', server.url]);
    expect(used.stderr).toBe('');
    expect(used.code).toBe(0);
    expect(used.stdout).toMatch(/^switched: scenario after-sync, 1 fault rule\(s\), own seed \(inline scenario\)/);
    await expectAfterSync(server.url);
  });

  it('connectMock(url).useScenario(path) sends the file inline too, relative to baseDir', async () => {
    const server = await serveHere([], { cwd: serverDir });
    const remote = connectMock(server.url, { baseDir: clientDir });
    const summary = await remote.useScenario('scenarios/after-sync.json');
    expect(summary).toMatchObject({
      name: 'after-sync',
      description: 'the state after a sync',
      faults: 1,
      seeded: true,
    });
    await expectAfterSync(server.url);
    // A name is still a name: the mock resolves it among its own and the built-in scenarios.
    expect(await remote.useScenario('tag-objects-500')).toMatchObject({ name: 'tag-objects-500', faults: 1 });
    await remote.close();
  });

  it('a fixture outside the scenario file’s folder is refused on the client, naming the field, and nothing is sent', async () => {
    const server = await serveHere([], { cwd: serverDir });
    const refused = await cli(['scenario', 'use', 'scenarios/escapes.json', '--url', server.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/escapes\.json.*seed\.trees\.demo\[0\]\.fixture/);
    expect((await cli(['scenario', 'show', '--url', server.url])).stdout).toMatch(/^scenario default/);
  });
});
