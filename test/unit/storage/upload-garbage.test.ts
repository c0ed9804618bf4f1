import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src/storage/blob-store.js';
import { SCAVENGE_EVERY_BYTES } from '../../../src/storage/young-garbage.js';

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;

describe('a streamed upload leaves little dead memory behind', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csp-mock-garbage-'));
    blobs = await BlobStore.open(join(dir, 'blobs'));
  });
  afterEach(async () => {
    await blobs.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('96 MiB of fresh 64 KiB chunks (what the HTTP parser hands over) never leave 16 MiB of buffers alive', async () => {
    const gcBefore = typeof (globalThis as { gc?: unknown }).gc;
    const base = process.memoryUsage().arrayBuffers;
    let peak = 0;
    async function* body(): AsyncGenerator<Buffer> {
      for (let sent = 0; sent < 96 * MIB; sent += CHUNK) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
        yield Buffer.alloc(CHUNK, sent & 0xff);
      }
    }
    const stored = await blobs.put(Readable.from(body()));
    expect(stored.size).toBe(96 * MIB);
    // Left to V8 alone, dead chunks pile up to 32 MiB before a scavenge frees them.
    expect(peak).toBeLessThan(SCAVENGE_EVERY_BYTES + 8 * MIB);
    // Asking for minor GCs puts no `gc` on the global object.
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(gcBefore);
  });
});
