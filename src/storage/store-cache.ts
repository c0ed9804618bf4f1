import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';

const MIB = 1024 * 1024;
/** What the store's cache may hold by default (option contentCacheMiB); 0 turns it off. */
export const DEFAULT_CONTENT_CACHE_MIB = 64;
/** The largest blob it keeps (larger ones always stream from their file). */
const MAX_ENTRY_BYTES = 16 * MIB;

/** Something kept besides blob bytes (a listing's order, a synthetic file's chunk maker), with what it costs in memory. */
interface Made {
  value: unknown;
  bytes: number;
}
type Kept = Buffer | Made;

/** One kind of thing kept in the store's cache, under keys of its own. */
export interface CacheShelf<T> {
  get(key: string): T | undefined;
  /** Without counting as a use (the least recently used stays so). */
  peek(key: string): T | undefined;
  /** Keeps `value`, which costs about `bytes` of memory. */
  set(key: string, value: T, bytes: number): void;
  delete(key: string): void;
}

/**
 * The store's one cache: what is costly to make again and safe to keep, least recently used dropped
 * first, within one bound in bytes (option contentCacheMiB). It holds the bytes of recently read blobs
 * (sound because a blob never changes once committed: a write makes a new blob id, and a deleted blob
 * is dropped here too; serving from memory allocates nothing per request, streaming a file allocates
 * its size in read buffers every time) and, on shelves of their own, other things made from the state
 * (the order of a big container's listing, a synthetic file's chunk maker). An answer being written
 * keeps its own reference to the bytes, as any stream keeps the chunk it is writing.
 */
export class StoreCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly #lru: LRUCache<string, Kept, string> | undefined;

  constructor(maxBytes = DEFAULT_CONTENT_CACHE_MIB * MIB, maxEntryBytes = MAX_ENTRY_BYTES) {
    this.maxBytes = Math.max(0, maxBytes);
    this.maxEntryBytes = Math.min(maxEntryBytes, this.maxBytes);
    this.#lru =
      this.maxBytes > 0
        ? new LRUCache<string, Kept, string>({
            maxSize: this.maxBytes,
            maxEntrySize: this.maxEntryBytes,
            sizeCalculation: (kept) => Math.max(1, Buffer.isBuffer(kept) ? kept.length : kept.bytes),
            // Concurrent misses of one blob share this one read.
            fetchMethod: (_key, _stale, { context }) => readFile(context),
          })
        : undefined;
  }

  /** Bytes kept now: at most maxBytes. */
  get bytes(): number {
    return this.#lru?.calculatedSize ?? 0;
  }

  /** Entries kept (blobs and everything else). */
  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** The blob's bytes if kept (now the most recently used); nothing is read. */
  get(blobId: string): Buffer | undefined {
    const kept = this.#lru?.get(blobKey(blobId));
    return Buffer.isBuffer(kept) ? kept : undefined;
  }

  /** get(), or on a miss the blob read from `path` (and kept); undefined when it is too large or cannot be read. */
  async read(blobId: string, path: string, size: number): Promise<Buffer | undefined> {
    if (!this.#lru || size > this.maxEntryBytes) return undefined;
    try {
      const kept = await this.#lru.fetch(blobKey(blobId), { context: path });
      return Buffer.isBuffer(kept) ? kept : undefined;
    } catch {
      return undefined; // deleted meanwhile, or unreadable: the caller streams, and its error is answered
    }
  }

  /** Drops a blob (it was deleted). */
  delete(blobId: string): void {
    this.#lru?.delete(blobKey(blobId));
  }

  clear(): void {
    this.#lru?.clear();
  }

  /**
   * A shelf for one kind of thing, named by `kind`; what it holds counts against the same bound as
   * the blobs. `T` is what the shelf's one owner puts on it.
   */
  shelf<T>(kind: string): CacheShelf<T> {
    const key = (k: string): string => `${kind}:${k}`;
    const made = (kept: Kept | undefined): T | undefined =>
      kept === undefined || Buffer.isBuffer(kept) ? undefined : (kept.value as T);
    return {
      get: (k) => made(this.#lru?.get(key(k))),
      peek: (k) => made(this.#lru?.peek(key(k))),
      set: (k, value, bytes) => void this.#lru?.set(key(k), { value, bytes }),
      delete: (k) => void this.#lru?.delete(key(k)),
    };
  }
}

/** Blob ids are kept under a key of their own kind, apart from every shelf's. */
const blobKey = (blobId: string): string => `blob:${blobId}`;
