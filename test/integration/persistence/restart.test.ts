import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import type { StateData } from '../../../src/domain/model.js';
import { HttpCloud } from '../../helpers/http-cloud.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/state/${name}`, import.meta.url));
/** What a start would load: the snapshot plus the log (plain JSON for the assertions). */
const readState = async (file: string): Promise<StateData> =>
  JSON.parse(JSON.stringify((await readDurableState(file))!.state));

describe('--data FILE persistence across restarts', { timeout: 30_000 }, () => {
  killServersAfterEach();
  const tmp = useTempDir('persist');
  let dataFile: string;
  beforeEach(() => {
    dataFile = join(tmp.path, 'state.json');
  });

  it('keeps containers, files, bytes, renames and deletions across a restart, without seeding the demo tree again', async () => {
    const first = await serve(['--data', dataFile]);
    let cloud = new HttpCloud(first.url);
    const root = await cloud.rootPath();
    const demo = await cloud.list(root);
    await cloud.delete(demo.find((i) => i.name === 'Documents')!.path);
    const folder = await cloud.createContainer(root, 'Kept');
    const file = await cloud.upload(folder, 'data.bin', Buffer.from('persisted bytes'));
    await cloud.rename(file, 'renamed.bin');
    expect(await first.stop('SIGTERM')).toMatchObject({ code: 0 });

    const second = await serve(['--data', dataFile]);
    cloud = new HttpCloud(second.url);
    expect(await cloud.rootPath()).toBe(root);
    const names = (await cloud.list(root)).map((i) => i.name);
    expect(names).toContain('Kept');
    expect(names).not.toContain('Documents');
    expect((await cloud.list(folder)).map((i) => [i.name, i.bytes])).toEqual([['renamed.bin', 15]]);
    expect((await cloud.content(file)).toString()).toBe('persisted bytes');
  });

  it('keeps file bytes as blob files in FILE.blobs/ named by opaque id: never in the JSON, never by user names, no password in the JSON', async () => {
    const server = await serve(['--empty', '--data', dataFile, '--user', 'demo:Pass-Word-42']);
    const cloud = new HttpCloud(server.url, `Basic ${Buffer.from('demo:Pass-Word-42').toString('base64')}`);
    const content = Buffer.from('CONTENT-MARKER '.repeat(100));
    const file = await cloud.upload(await cloud.rootPath(), 'holiday-photo.jpg', content);
    const state = await readState(dataFile);
    const node = state.nodes[file.split('/').pop()!]!;
    expect(node.blobId).toMatch(/^[0-9a-f]{32}$/);
    const blobNames = await readdir(`${dataFile}.blobs`);
    expect(blobNames).toEqual([node.blobId]);
    expect(await readFile(join(`${dataFile}.blobs`, node.blobId!))).toEqual(content);
    const json = await readFile(dataFile, 'utf8');
    expect(json).not.toContain('CONTENT-MARKER');
    expect(json).not.toContain(content.toString('base64').slice(0, 40));
    expect(json).not.toContain('Pass-Word-42');
  });

  it('answers a state-changing request only once the change is durable (a line of the log beside the snapshot)', async () => {
    const server = await serve(['--empty', '--data', dataFile]);
    const cloud = new HttpCloud(server.url);
    const root = await cloud.rootPath();
    const folder = await cloud.createContainer(root, 'just-created');
    const id = folder.split('/').pop()!;
    expect((await readState(dataFile)).nodes[id]!.name).toBe('just-created');
    const lastLine = (await readFile(`${dataFile}.log`, 'utf8')).trim().split('\n').pop()!;
    expect(JSON.parse(lastLine).nodes.map((n: { name: string }) => n.name)).toContain('just-created');
    const file = await cloud.upload(folder, 'f.txt', Buffer.from('v1'));
    const fileId = file.split('/').pop()!;
    await cloud.putContent(file, Buffer.from('version two'));
    expect((await readState(dataFile)).nodes[fileId]).toMatchObject({ bytes: 11, version: 2 });
    await cloud.rename(file, 'g.txt');
    expect((await readState(dataFile)).nodes[fileId]!.name).toBe('g.txt');
    await cloud.delete(file);
    expect((await readState(dataFile)).nodes[fileId]!.recycled).toEqual(expect.any(Number));
  });

  it('drops orphaned blobs and temp files at start, before it listens', async () => {
    const first = await serve(['--empty', '--data', dataFile]);
    const cloud = new HttpCloud(first.url);
    const file = await cloud.upload(await cloud.rootPath(), 'keep.txt', Buffer.from('keep me'));
    await first.stop('SIGTERM');
    const blobs = `${dataFile}.blobs`;
    const kept = (await readState(dataFile)).nodes[file.split('/').pop()!]!.blobId;
    await writeFile(join(blobs, 'ffffffffffffffffffffffffffffffff'), 'orphan');
    await writeFile(join(blobs, '.tmp-0011223344556677'), 'half a blob');
    await writeFile(join(tmp.path, '.state.json.tmp'), '{"schema":1,"users":{');

    const second = await serve(['--empty', '--data', dataFile]);
    expect(await readdir(blobs)).toEqual([kept]);
    expect(existsSync(join(tmp.path, '.state.json.tmp'))).toBe(false);
    expect(second.stdout.join('\n')).toMatch(/dropped 2 orphaned blob file\(s\)/);
    expect((await new HttpCloud(second.url).content(file)).toString()).toBe('keep me');
  });

  it('creates the state file and its blob folder on the first start', async () => {
    const nested = join(tmp.path, 'sub', 'state.json');
    await mkdir(join(tmp.path, 'sub'));
    await serve(['--data', nested]);
    expect((await readState(nested)).schema).toBe(1);
    expect(existsSync(`${nested}.blobs`)).toBe(true);
  });

  it.each([
    ['foreign.json', /state file .*foreign\.json is not a csp-mock state/],
    ['truncated.json', /state file .*truncated\.json is not valid JSON/],
  ])(
    'refuses the state file %s with a message naming it, a non-zero exit, and leaves it untouched',
    async (name, message) => {
      await copyFile(fixture(name), join(tmp.path, name));
      const before = await readFile(join(tmp.path, name));
      const proc = new ServeProcess(['serve', '--port', '0', '--data', join(tmp.path, name)]);
      expect((await proc.exited).code).toBe(1);
      expect(proc.stderr.join('\n')).toMatch(message);
      expect(proc.stdout.join('\n')).not.toContain('listening on');
      expect(await readFile(join(tmp.path, name))).toEqual(before);
    },
  );

  it('leaves one snapshot holding everything after a clean stop: no log, no lock', async () => {
    const server = await serve(['--empty', '--data', dataFile]);
    const cloud = new HttpCloud(server.url);
    const folder = await cloud.createContainer(await cloud.rootPath(), 'in-the-snapshot');
    expect(existsSync(`${dataFile}.lock`)).toBe(true);
    expect(await server.stop('SIGTERM')).toMatchObject({ code: 0 });
    expect(existsSync(`${dataFile}.log`)).toBe(false);
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
    const snapshot = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(snapshot.nodes[folder.split('/').pop()!].name).toBe('in-the-snapshot');
  });

  it('refuses a second server on the same file, naming the file and the pid that holds it', async () => {
    const first = await serve(['--empty', '--data', dataFile]);
    const second = new ServeProcess(['serve', '--port', '0', '--empty', '--data', dataFile]);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr.join('\n')).toContain(
      `state file ${dataFile} is in use by process ${first.pid} (lock file ${dataFile}.lock)`,
    );
    // The first one is unharmed and still takes writes.
    const cloud = new HttpCloud(first.url);
    await cloud.createContainer(await cloud.rootPath(), 'still-mine');
    expect((await readFile(`${dataFile}.lock`, 'utf8')).trim()).toBe(String(first.pid));
  });

  it('takes over the lock of a server that was killed, and says so', async () => {
    const first = await serve(['--empty', '--data', dataFile]);
    const cloud = new HttpCloud(first.url);
    const root = await cloud.rootPath();
    const folder = await cloud.createContainer(root, 'before-the-kill');
    await first.stop('SIGKILL');
    expect((await readFile(`${dataFile}.lock`, 'utf8')).trim()).toBe(String(first.pid));
    const second = await serve(['--empty', '--data', dataFile]);
    expect(second.stdout.join('\n')).toContain(`took over the stale lock ${dataFile}.lock of process ${first.pid}`);
    expect((await new HttpCloud(second.url).list(root)).map((i) => i.path)).toEqual([folder]);
  });
});
