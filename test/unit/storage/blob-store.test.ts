import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/storage/blob-store.js';
import { folderOfDeadOwner, folderOfExitedOwner } from '../../helpers/blob-folders.js';

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('BlobStore', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csp-mock-blobtest-'));
    blobs = await BlobStore.open(join(dir, 'state.json.blobs'));
  });
  afterEach(async () => {
    await blobs.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a buffer and a stream under opaque 32-hex ids and reads them back', async () => {
    const a = await blobs.put(Buffer.from('from a buffer'));
    const b = await blobs.put(Readable.from([Buffer.from('from '), Buffer.from('a stream')]));
    expect(a).toEqual({ blobId: expect.stringMatching(/^[0-9a-f]{32}$/), size: 13 });
    expect(b.size).toBe(13);
    expect(a.blobId).not.toBe(b.blobId);
    expect(await readAll(blobs.read(a.blobId!))).toBe('from a buffer');
    expect(await readFile(blobs.pathOf(b.blobId!), 'utf8')).toBe('from a stream');
    expect((await readdir(blobs.dir)).sort()).toEqual([a.blobId, b.blobId].sort());
  });

  it('reads an inclusive byte range', async () => {
    const { blobId } = await blobs.put(Buffer.from('0123456789'));
    expect(await readAll(blobs.read(blobId!, { start: 2, end: 5 }))).toBe('2345');
  });

  it('writes a block copy-on-write: a new blob, the original untouched', async () => {
    const original = await blobs.put(Buffer.from('abcdef'));
    const patched = await blobs.writeAt(original.blobId!, 4, Readable.from([Buffer.from('XYZ')]));
    expect(patched.size).toBe(7);
    expect(await readAll(blobs.read(patched.blobId))).toBe('abcdXYZ');
    expect(await readAll(blobs.read(original.blobId!))).toBe('abcdef');
  });

  it('leaves no blob and no temp file when the source stream fails midway', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000, 1));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(blobs.put(failing)).rejects.toThrow('client went away');
    expect(await readdir(blobs.dir)).toEqual([]);
  });

  it('sweeps temp files and unreferenced blobs, keeping referenced ones', async () => {
    const keep = await blobs.put(Buffer.from('keep'));
    const drop = await blobs.put(Buffer.from('drop'));
    await writeFile(join(blobs.dir, '.tmp-0123456789abcdef'), 'half a write');
    const dropped = await blobs.sweep(new Set([keep.blobId!]));
    expect(dropped).toBe(2);
    expect(await readdir(blobs.dir)).toEqual([keep.blobId]);
    expect(existsSync(blobs.pathOf(drop.blobId!))).toBe(false);
  });

  it('deletes idempotently', async () => {
    const { blobId } = await blobs.put(Buffer.from('x'));
    await blobs.delete(blobId!);
    await blobs.delete(blobId!);
    expect(await readdir(blobs.dir)).toEqual([]);
  });

  it('keeps a named directory on close, but removes its private temp directory in memory mode', async () => {
    await blobs.put(Buffer.from('x'));
    await blobs.close();
    expect(existsSync(blobs.dir)).toBe(true);
    const ephemeral = await BlobStore.open();
    await ephemeral.put(Buffer.from('y'));
    expect(ephemeral.dir.startsWith(tmpdir())).toBe(true);
    await ephemeral.close();
    expect(existsSync(ephemeral.dir)).toBe(false);
  });

  it('turns a full disk during a blob write into StorageError full and leaves no temp file', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      },
    });
    await expect(blobs.put(failing)).rejects.toMatchObject({ name: 'StorageError', kind: 'full' });
    const { blobId } = await blobs.put(Buffer.from('base'));
    const failingBlock = new Readable({
      read() {
        this.destroy(Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' }));
      },
    });
    await expect(blobs.writeAt(blobId!, 1, failingBlock)).rejects.toMatchObject({ name: 'StorageError', kind: 'full' });
    expect(await readdir(blobs.dir)).toEqual([blobId]);
  });

  it('names a memory-mode folder after its owner pid, removes it at exit, and sweeps those of dead owners at the next open', async () => {
    const ephemeral = await BlobStore.open();
    expect(ephemeral.dir).toMatch(new RegExp(`csp-mock-blobs-${process.pid}-[^/]+$`));
    // A process that opens one and exits without close(): its folder is gone all the same.
    const left = folderOfExitedOwner('', "await b.put(Buffer.from('x'))");
    expect(left.dir, left.stderr).toMatch(/csp-mock-blobs-\d+-/);
    expect(existsSync(left.dir)).toBe(false);
    // A killed owner leaves its folder: the next open sweeps it, but not a live owner's.
    const abandoned = await folderOfDeadOwner();
    await writeFile(join(abandoned, 'blob'), 'left by a SIGKILL');
    const another = await BlobStore.open();
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(ephemeral.dir)).toBe(true);
    await another.close();
    await ephemeral.close();
  });
});
