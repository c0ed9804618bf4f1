import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StateData } from '../../../src/domain/model.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import { BASIC_DEMO, killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/**
 * Hand-damaged --data files: each start must end at once with one clear message naming the file
 * and what is wrong (the node ids), and leave the file as it was; nothing may hang or vanish silently.
 */
describe('a damaged --data state file is refused clearly at start', { timeout: 30_000 }, () => {
  killServersAfterEach();
  const tmp = useTempDir('damaged-state');
  const dataFile = (): string => join(tmp.path, 'state.json');

  const dav = (server: ServeProcess, path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.url}/dav${path}`, { ...init, headers: { Authorization: BASIC_DEMO, ...init.headers } });

  /** A state with demo's root, /a, /a/b and /a/b/f.txt (with content), written by a clean stop. */
  async function made(): Promise<{ state: StateData; ids: Record<string, string> }> {
    const server = await serve(['--empty', '--data', dataFile()]);
    expect((await dav(server, '/a', { method: 'MKCOL' })).status).toBe(201);
    expect((await dav(server, '/a/b', { method: 'MKCOL' })).status).toBe(201);
    expect((await dav(server, '/a/b/f.txt', { method: 'PUT', body: 'content' })).status).toBe(201);
    await server.stop('SIGTERM');
    const state = JSON.parse(await readFile(dataFile(), 'utf8')) as StateData;
    const ids: Record<string, string> = { root: state.users['demo']!.rootId };
    for (const node of Object.values(state.nodes)) if (node.parentId) ids[node.name] = node.id;
    return { state, ids };
  }

  /** Starts over the file; it must exit with an error (not hang, not listen) and leave the file untouched. */
  async function refused(): Promise<string> {
    const before = await readFile(dataFile());
    const proc = new ServeProcess(['serve', '--port', '0', '--data', dataFile()]);
    const exit = await Promise.race([
      proc.exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000)),
    ]);
    expect(exit, 'the start ends (no endless loop)').not.toBe('still running');
    expect((exit as { code: number | null }).code).toBe(1);
    expect(proc.stdout.join('\n')).not.toContain('listening on');
    expect(await readFile(dataFile())).toEqual(before);
    return proc.stderr.join('\n');
  }

  it('a node that is its own parent in the snapshot fails the start, naming the file and the node', async () => {
    const { state, ids } = await made();
    state.nodes[ids['b']!]!.parentId = ids['b']!;
    await writeFile(dataFile(), JSON.stringify(state));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()}`);
    expect(message).toContain(`"${ids['b']}"`);
    expect(message).toMatch(/parent cycle/);
  });

  it('A under B under A in the snapshot fails the start, naming the file and both nodes', async () => {
    const { state, ids } = await made();
    state.nodes[ids['a']!]!.parentId = ids['b']!;
    await writeFile(dataFile(), JSON.stringify(state));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()}`);
    expect(message).toContain(`"${ids['a']}"`);
    expect(message).toContain(`"${ids['b']}"`);
    expect(message).toMatch(/parent cycle/);
  });

  it('a parent cycle made by a valid next log record fails the start, naming the file, its log and the nodes', async () => {
    const { state, ids } = await made();
    // The next record after the snapshot's: a valid record, applied at start.
    const seq = (state as StateData & { logSeq: number }).logSeq + 1;
    const record = { seq, nodes: [{ ...state.nodes[ids['a']!]!, parentId: ids['b']! }] };
    await writeFile(logFileOf(dataFile()), `${JSON.stringify(record)}\n`);
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()} with its log ${logFileOf(dataFile())}`);
    expect(message).toContain(`"${ids['a']}"`);
    expect(message).toContain(`"${ids['b']}"`);
    expect(message).toMatch(/parent cycle/);
  });

  it('a node whose parent is missing fails the start, naming the file, the node and the missing parent (its subtree would vanish)', async () => {
    const { state, ids } = await made();
    state.nodes[ids['b']!]!.parentId = 'no-such-parent';
    await writeFile(dataFile(), JSON.stringify(state));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()}`);
    expect(message).toContain(`node "${ids['b']}" has parent "no-such-parent", which is not in the state`);
  });

  it("a node without a parent that is no user's root fails the start, naming the file and the node", async () => {
    const { state, ids } = await made();
    state.nodes[ids['b']!]!.parentId = null;
    await writeFile(dataFile(), JSON.stringify(state));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()}`);
    expect(message).toContain(`node "${ids['b']}" has no parent and is no user's root`);
  });

  it('a node line torn in the middle of a snapshot written one node per line fails the start as not JSON, naming the file', async () => {
    const { ids } = await made();
    const text = await readFile(dataFile(), 'utf8');
    const line = text.split('\n').find((l) => l.startsWith(`    "${ids['b']}": `))!;
    await writeFile(dataFile(), text.replace(line, line.slice(0, line.length >> 1)));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()} is not valid JSON`);
  });

  it('a parent cycle edited into one line of a snapshot written one node per line fails the start, naming the nodes', async () => {
    const { ids } = await made();
    const text = await readFile(dataFile(), 'utf8');
    expect(text).toContain(`"parentId":"${ids['root']}"`);
    await writeFile(dataFile(), text.replace(`"parentId":"${ids['root']}"`, `"parentId":"${ids['b']}"`));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()} is not a csp-mock state`);
    expect(message).toContain(`"${ids['a']}" -> "${ids['b']}" -> "${ids['a']}" form a parent cycle`);
  });

  it('"tags": null is refused with a message naming the file and the node', async () => {
    const { state, ids } = await made();
    (state.nodes[ids['f.txt']!] as unknown as { tags: null }).tags = null;
    await writeFile(dataFile(), JSON.stringify(state));
    const message = await refused();
    expect(message).toContain(`state file ${dataFile()} is not a csp-mock state`);
    expect(message).toContain(`node "${ids['f.txt']}" has tags null, expected a list of strings`);
  });

  it('"bytes": -1 is refused naming the node (it was served as a size in PROPFIND and REST)', async () => {
    const { state, ids } = await made();
    (state.nodes[ids['f.txt']!] as unknown as { bytes: number }).bytes = -1;
    await writeFile(dataFile(), JSON.stringify(state));
    expect(await refused()).toContain(`node "${ids['f.txt']}" has bytes -1, expected a whole number`);
  });

  it('a missing blob answers a clear error that names no server path (REST and WebDAV), not a cut connection', async () => {
    const { state, ids } = await made();
    const blobId = state.nodes[ids['f.txt']!]!.blobId!;
    await rm(join(`${dataFile()}.blobs`, blobId));
    const server = await serve(['--empty', '--data', dataFile()]);
    const answers = [
      await dav(server, '/a/b/f.txt'),
      await fetch(`${server.url}/v2/files/${ids['f.txt']}/content`, {
        headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' },
      }),
    ];
    for (const answer of answers) {
      const body = await answer.text();
      expect(answer.status).toBe(500);
      expect(body).toContain('the stored content of this file is missing on the server');
      expect(body).not.toContain(tmp.path);
      expect(body).not.toContain(blobId);
      expect(body).not.toMatch(/ENOENT/);
    }
  });
});
