import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';

const MIB = 1024 * 1024;
/** What the content cache may hold by default (option contentCacheMiB); 0 turns it off. */
export const DEFAULT_CONTENT_CACHE_MIB = 64;
/** The largest blob it keeps (larger ones always stream from their file). */
const MAX_ENTRY_BYTES = 16 * MIB;

/**
 * The bytes of recently read blobs, least recently used dropped first, within `maxBytes`. Sound
 * because a blob never changes once committed: a write makes a new blob id, and a deleted blob is
 * dropped here too. Serving from memory allocates nothing per request; streaming a file allocates its
 * size in read buffers every time. An answer being written keeps its own reference to the bytes, as
 * any stream keeps the chunk it is writing.
 */
export class BlobCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly #lru: LRUCache<string, Buffer, string> | undefined;

  constructor(maxBytes = DEFAULT_CONTENT_CACHE_MIB * MIB, maxEntryBytes = MAX_ENTRY_BYTES) {
    this.maxBytes = Math.max(0, maxBytes);
    this.maxEntryBytes = Math.min(maxEntryBytes, this.maxBytes);
    this.#lru =
      this.maxBytes > 0
        ? new LRUCache<string, Buffer, string>({
            maxSize: this.maxBytes,
            maxEntrySize: this.maxEntryBytes,
            sizeCalculation: (bytes) => Math.max(1, bytes.length),
            // Concurrent misses of one blob share this one read.
            fetchMethod: (_blobId, _stale, { context }) => readFile(context),
          })
        : undefined;
  }

  /** Bytes kept now: at most maxBytes. */
  get bytes(): number {
    return this.#lru?.calculatedSize ?? 0;
  }

  /** Blobs kept. */
  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** The blob's bytes if kept (now the most recently used); nothing is read. */
  get(blobId: string): Buffer | undefined {
    return this.#lru?.get(blobId);
  }

  /** get(), or on a miss the blob read from `path` (and kept); undefined when it is too large or cannot be read. */
  async read(blobId: string, path: string, size: number): Promise<Buffer | undefined> {
    if (!this.#lru || size > this.maxEntryBytes) return undefined;
    try {
      return await this.#lru.fetch(blobId, { context: path });
    } catch {
      return undefined; // deleted meanwhile, or unreadable: the caller streams, and its error is answered
    }
  }

  /** Drops a blob (it was deleted). */
  delete(blobId: string): void {
    this.#lru?.delete(blobId);
  }

  clear(): void {
    this.#lru?.clear();
  }
}
