import { readFile } from 'node:fs/promises';

const MIB = 1024 * 1024;
/** What the cache may hold in total, and the largest blob it keeps (larger ones always stream). */
export const BLOB_CACHE_BYTES = 64 * MIB;
export const BLOB_CACHE_ENTRY_BYTES = 16 * MIB;

/** A blob's bytes, kept in memory until `release()` (call it once the answer is written or gone). */
export interface BlobLease {
  readonly bytes: Buffer;
  release(): void;
}

interface Entry {
  bytes: Buffer;
  /** Answers still writing these bytes: such an entry is never evicted. */
  pins: number;
  /** Out of the map (its blob was deleted); its bytes count until the last pin goes. */
  dropped: boolean;
}

/**
 * The bytes of recently read blobs, least recently used dropped first. Sound because a blob never
 * changes once committed: a write makes a new blob id, and a deleted blob is dropped here too.
 * Serving a hit allocates nothing; streaming a blob from its file allocates its size in read buffers
 * every time, and that garbage drove a major GC every few 8 MiB GETs.
 * Bounded: everything it holds — kept entries, entries still being written to slow clients, reads
 * under way — stays within `maxBytes`; when nothing more fits, the caller streams instead.
 */
export class BlobCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  /** Map order is recency: the first entry is the least recently used. */
  readonly #entries = new Map<string, Entry>();
  /** Reads under way, so concurrent misses read a blob once; delete() forgets one so it is not kept. */
  readonly #loading = new Map<string, { done: Promise<Entry | undefined> }>();
  #bytes = 0;

  constructor(maxBytes = BLOB_CACHE_BYTES, maxEntryBytes = BLOB_CACHE_ENTRY_BYTES) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.min(maxEntryBytes, maxBytes);
  }

  /** Bytes held now (kept, still being written, or being read): at most maxBytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Blobs kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** The blob's bytes if kept (now the most recently used), leased; nothing is read. */
  take(blobId: string): BlobLease | undefined {
    const entry = this.#entries.get(blobId);
    if (!entry) return undefined;
    this.#entries.delete(blobId);
    this.#entries.set(blobId, entry);
    return this.#lease(entry);
  }

  /** take(), or on a miss the blob read from `path` and kept; undefined when it is too large or does not fit now. */
  async read(blobId: string, path: string, size: number): Promise<BlobLease | undefined> {
    const hit = this.take(blobId);
    if (hit) return hit;
    if (size > this.maxEntryBytes) return undefined;
    let loading = this.#loading.get(blobId);
    if (!loading) {
      if (!this.#makeRoom(size)) return undefined;
      this.#bytes += size; // reserved while the read runs
      const job = {} as { done: Promise<Entry | undefined> };
      job.done = this.#load(blobId, path, size, job);
      this.#loading.set(blobId, (loading = job));
    }
    const entry = await loading.done;
    return entry && !entry.dropped ? this.#lease(entry) : undefined;
  }

  /** Drops a blob (it was deleted); bytes still being written stay counted until released. */
  delete(blobId: string): void {
    this.#loading.delete(blobId);
    const entry = this.#entries.get(blobId);
    if (!entry) return;
    this.#entries.delete(blobId);
    entry.dropped = true;
    if (entry.pins === 0) this.#bytes -= entry.bytes.length;
  }

  clear(): void {
    for (const blobId of [...this.#entries.keys(), ...this.#loading.keys()]) this.delete(blobId);
  }

  async #load(blobId: string, path: string, size: number, job: object): Promise<Entry | undefined> {
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(path);
    } catch {
      bytes = undefined; // the caller streams, and send answers the error as before
    }
    this.#bytes -= size;
    const current = this.#loading.get(blobId) === job;
    if (current) this.#loading.delete(blobId);
    // Not kept after a delete() meanwhile: the waiting answers stream instead (send finds what is left).
    if (!bytes || !current || bytes.length > this.maxEntryBytes) return undefined;
    const entry: Entry = { bytes, pins: 0, dropped: false };
    this.#bytes += bytes.length;
    this.#entries.set(blobId, entry);
    return entry;
  }

  /** Evicts unpinned entries, least recently used first, until `size` more bytes fit. */
  #makeRoom(size: number): boolean {
    for (const [blobId, entry] of this.#entries) {
      if (this.#bytes + size <= this.maxBytes) break;
      if (entry.pins === 0) this.delete(blobId);
    }
    return this.#bytes + size <= this.maxBytes;
  }

  #lease(entry: Entry): BlobLease {
    entry.pins++;
    let released = false;
    return {
      bytes: entry.bytes,
      release: () => {
        if (released) return;
        released = true;
        entry.pins--;
        if (entry.pins === 0 && entry.dropped) this.#bytes -= entry.bytes.length;
      },
    };
  }
}
