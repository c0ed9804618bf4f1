import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killServersAfterEach, serve } from '../../helpers/cli.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import { HttpCloud } from '../../helpers/http-cloud.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';

describe('--data on a full disk (a 4 MiB tmpfs)', { timeout: 30_000 }, () => {
  killServersAfterEach();
  let disk: SmallDisk;
  beforeEach(async () => {
    disk = await mountSmallDisk(4096);
  });
  afterEach(async () => {
    await disk.unmount();
  });

  it('answers 507 to an upload the disk cannot hold, keeps nothing of it, and takes the next write once space is back', async () => {
    const dataFile = join(disk.path, 'state.json');
    const server = await serve(['--empty', '--data', dataFile]);
    const cloud = new HttpCloud(server.url);
    const root = await cloud.rootPath();
    const kept = await cloud.upload(root, 'kept.txt', Buffer.from('acknowledged'));
    const before = (await cloud.list(root)).map((i) => i.name);

    const tooBig = await cloud.request(`${root}/contents`, uploadInit('big.bin', Buffer.alloc(5 * 1024 * 1024, 7)));
    expect(tooBig.status, await tooBig.clone().text()).toBe(507);
    expect(tooBig.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await tooBig.text()).toMatch(/^507 insufficient storage/);
    expect((await cloud.list(root)).map((i) => i.name)).toEqual(before);
    expect((await readdir(`${dataFile}.blobs`)).filter((n) => n.startsWith('.tmp-'))).toEqual([]);

    // Fill what is left, so that even a tiny change cannot be logged: refused, and not kept.
    const filler = join(disk.path, 'filler');
    await writeFile(filler, Buffer.alloc(0));
    await fillDisk(filler);
    const refused = await cloud.request(`${root}/contents`, uploadInit('tiny.txt', Buffer.from('x')));
    expect(refused.status).toBe(507);
    expect((await cloud.list(root)).map((i) => i.name)).toEqual(before);
    // A change with no blob: the log's last page takes a few, then an append finds no room.
    const folders: string[] = [];
    let status = 201;
    for (let i = 0; i < 40 && status === 201; i++) {
      const res = await cloud.request(`${root}/contents`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.csp.container-info+xml' },
        body: `<container><name>folder-${i}</name></container>`,
      });
      status = res.status;
      if (status === 201) folders.push(`folder-${i}`);
    }
    expect(status).toBe(507);
    const durable = (await readDurableState(dataFile))!;
    expect(durable.tornBytes, 'nothing half-written in the log').toBe(0);
    const names = Object.values(durable.state.nodes).map((n) => n.name);
    expect(names).not.toContain(`folder-${folders.length}`);
    for (const name of folders) expect(names).toContain(name);
    const referenced = Object.values(durable.state.nodes)
      .map((n) => n.blobId)
      .filter(Boolean);
    expect((await readdir(`${dataFile}.blobs`)).sort(), 'no blob of a refused change left behind').toEqual(
      referenced.sort(),
    );
    before.push(...folders);
    expect((await cloud.list(root)).map((i) => i.name).sort()).toEqual([...before].sort());

    await rm(filler);
    const after = await cloud.upload(root, 'after.txt', Buffer.from('space is back'));
    expect((await cloud.content(after)).toString()).toBe('space is back');
    expect((await cloud.content(kept)).toString()).toBe('acknowledged');

    // What is on disk loads, with exactly the acknowledged changes.
    expect(await server.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    const again = new HttpCloud((await serve(['--empty', '--data', dataFile])).url);
    expect((await again.list(root)).map((i) => i.name).sort()).toEqual(['after.txt', ...before].sort());
  });
});

describe('--data on a full disk while compaction runs (a 3 MiB tmpfs)', { timeout: 60_000 }, () => {
  killServersAfterEach();
  let disk: SmallDisk;
  beforeEach(async () => {
    disk = await mountSmallDisk(3072);
  });
  afterEach(async () => {
    await disk.unmount();
  });

  it('a snapshot the full disk cuts short never replaces the state: after kill -9 every acknowledged write loads', async () => {
    const dataFile = join(disk.path, 'state.json');
    // A small compaction bound, so snapshots are written again and again while the disk fills.
    const server = await serve(['--empty', '--data', dataFile, '--compact-after', '16384']);
    const cloud = new HttpCloud(server.url);
    const root = await cloud.rootPath();
    // A queue makes every snapshot larger than the log records it replaces (each change is an event in it).
    const queue = await cloud.request('/cdmi/demo/sync', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/cdmi-queue', 'X-CDMI-Specification-Version': '1.0.1' },
      body: JSON.stringify({
        metadata: { cdmi_queue_type: 'cdmi_notification_queue', cdmi_notification_events: ['cdmi_create_complete'] },
      }),
    });
    expect(queue.status).toBe(201);

    const acknowledged: string[] = [];
    let status = 201;
    for (let i = 0; i < 40 && status === 201; i++) {
      const res = await cloud.request(`${root}/contents`, uploadInit(`upload-${i}.bin`, Buffer.alloc(200_000, i)));
      status = res.status;
      if (status === 201) acknowledged.push(`upload-${i}.bin`);
    }
    expect(status, 'the uploads fill the disk').toBe(507);
    status = 201;
    for (let i = 0; i < 400 && status === 201; i++) {
      const res = await cloud.request(`/dav/folder-${i}`, { method: 'MKCOL' });
      status = res.status;
      if (status === 201) acknowledged.push(`folder-${i}`);
    }
    expect(status, 'the folders fill what the uploads left').toBe(507);
    expect(acknowledged.length).toBeGreaterThan(20);
    // Whatever compaction tried meanwhile, the state on disk reads, with every acknowledged write.
    const durable = (await readDurableState(dataFile))!;
    expect(Object.values(durable.state.nodes).map((n) => n.name)).toEqual(expect.arrayContaining(acknowledged));
    expect(
      (await readdir(disk.path)).filter((n) => n.endsWith('.tmp')),
      'no temp file left',
    ).toEqual([]);

    expect(await server.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    // Room again (the same files on a larger tmpfs), as a user frees space before starting again.
    disk.grow(8192);
    const again = new HttpCloud((await serve(['--empty', '--data', dataFile])).url);
    expect((await again.list(root)).map((i) => i.name).sort()).toEqual([...acknowledged].sort());
    const values = await again.request('/cdmi/demo/sync?queueValues');
    expect(((await values.json()) as { queueValues: string }).queueValues).toBe(`0-${acknowledged.length - 1}`);
  });
});

function uploadInit(name: string, content: Buffer): RequestInit {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  return { method: 'POST', body: form };
}

/** Appends to `file` until the disk says ENOSPC. */
async function fillDisk(file: string): Promise<void> {
  const { open } = await import('node:fs/promises');
  const fh = await open(file, 'a');
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    for (;;) await fh.write(chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    await fh.close();
  }
  // The last partial chunk may have left a few bytes: fill those too.
  const tail = await open(file, 'a');
  try {
    for (;;) await tail.write(Buffer.alloc(512, 1));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    await tail.close();
  }
}
