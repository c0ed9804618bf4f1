import { readFile } from 'node:fs/promises';

const MIB = 1024 * 1024;
/** What the cache may hold in total, and the largest blob it keeps (larger ones always stream). */
export const BLOB_CACHE_BYTES = 64 * MIB;
export const BLOB_CACHE_ENTRY_BYTES = 16 * MIB;

/**
 * The bytes of recently read blobs, least recently used dropped first, never more than `maxBytes` in
 * all. Sound because a blob never changes once committed: a write makes a new blob id, and a deleted
 * blob is dropped here too. Serving a hit allocates nothing; streaming a blob from its file allocates
 * its size in read buffers every time, and that garbage drove a major GC every few 8 MiB GETs.
 */
export class BlobCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  /** Map order is recency: the first entry is the least recently used. */
  readonly #entries = new Map<string, Buffer>();
  /** Reads under way, so concurrent misses read a blob once; delete() forgets one so it is not kept. */
  readonly #loading = new Map<string, Promise<Buffer>>();
  #bytes = 0;

  constructor(maxBytes = BLOB_CACHE_BYTES, maxEntryBytes = BLOB_CACHE_ENTRY_BYTES) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.min(maxEntryBytes, maxBytes);
  }

  /** Bytes held now (at most maxBytes). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The blob's bytes if held (now the most recently used), without reading anything. */
  get(blobId: string): Buffer | undefined {
    const hit = this.#entries.get(blobId);
    if (hit) {
      this.#entries.delete(blobId);
      this.#entries.set(blobId, hit);
    }
    return hit;
  }

  /** The blob's bytes, read from `path` on a miss; undefined when `size` is too large to keep. */
  async read(blobId: string, path: string, size: number): Promise<Buffer | undefined> {
    if (size > this.maxEntryBytes) return undefined;
    const hit = this.get(blobId);
    if (hit) return hit;
    let loading = this.#loading.get(blobId);
    if (!loading) {
      loading = readFile(path);
      this.#loading.set(blobId, loading);
      const settle = (): void => {
        if (this.#loading.get(blobId) === loading) this.#loading.delete(blobId);
      };
      loading.then((bytes) => {
        // Kept only if no delete() came meanwhile.
        if (this.#loading.get(blobId) === loading) this.#add(blobId, bytes);
        settle();
      }, settle);
    }
    const bytes = await loading;
    return bytes.length <= this.maxEntryBytes ? bytes : undefined;
  }

  delete(blobId: string): void {
    this.#loading.delete(blobId);
    const held = this.#entries.get(blobId);
    if (!held) return;
    this.#entries.delete(blobId);
    this.#bytes -= held.length;
  }

  clear(): void {
    this.#loading.clear();
    this.#entries.clear();
    this.#bytes = 0;
  }

  #add(blobId: string, bytes: Buffer): void {
    if (bytes.length > this.maxEntryBytes || this.#entries.has(blobId)) return;
    for (const [id, held] of this.#entries) {
      if (this.#bytes + bytes.length <= this.maxBytes) break;
      this.#entries.delete(id);
      this.#bytes -= held.length;
    }
    this.#entries.set(blobId, bytes);
    this.#bytes += bytes.length;
  }
}
