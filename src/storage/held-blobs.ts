import { Readable } from 'node:stream';

const KIB = 1024;
/** The largest blob memory mode keeps in memory, and what all of a store's kept blobs may take. */
export const HELD_BLOB_MAX_BYTES = 64 * KIB;
export const HELD_TOTAL_MAX_BYTES = 256 * KIB * KIB;
/**
 * What a kept blob costs beyond its bytes: its own allocation, Buffer and map entry (about
 * 0.9 KiB of RSS each for 100,000 1 KiB blobs), so that many tiny blobs stay within the bound too.
 */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * Memory mode's small blobs, kept in memory instead of a file each: there is no durability to keep,
 * and for a small upload a file's open/write/close is most of the work. Bounded:
 * a blob over HELD_BLOB_MAX_BYTES, or one that would take the total past HELD_TOTAL_MAX_BYTES, is
 * written to the private folder as before. Blobs are immutable, so a kept one never changes.
 */
export class HeldBlobs {
  readonly #blobs = new Map<string, Buffer>();
  readonly #maxTotal: number;
  #bytes = 0;

  constructor(maxTotal = HELD_TOTAL_MAX_BYTES) {
    this.#maxTotal = maxTotal;
  }

  /** What the kept blobs take now, overhead included (at most the bound). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps a copy of `content` under `blobId` and says true, or says false (too large, or no room left). */
  keep(blobId: string, content: Buffer): boolean {
    const cost = content.length + ENTRY_OVERHEAD_BYTES;
    if (content.length > HELD_BLOB_MAX_BYTES || this.#bytes + cost > this.#maxTotal) return false;
    // An unpooled copy of the exact size: the caller may reuse its buffer, and a slice of a pooled one
    // would keep its whole slab alive.
    const copy = Buffer.allocUnsafeSlow(content.length);
    content.copy(copy);
    this.#blobs.set(blobId, copy);
    this.#bytes += cost;
    return true;
  }

  ids(): string[] {
    return [...this.#blobs.keys()];
  }

  get(blobId: string): Buffer | undefined {
    return this.#blobs.get(blobId);
  }

  has(blobId: string): boolean {
    return this.#blobs.has(blobId);
  }

  /** The bytes `start`..`end` (inclusive, as fs.createReadStream takes them) as one-chunk stream. */
  read(blobId: string, range?: { start: number; end: number }): Readable | undefined {
    const bytes = this.#blobs.get(blobId);
    if (!bytes) return undefined;
    const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
    return Readable.from([part], { objectMode: false });
  }

  delete(blobId: string): boolean {
    const bytes = this.#blobs.get(blobId);
    if (!bytes) return false;
    this.#blobs.delete(blobId);
    this.#bytes -= bytes.length + ENTRY_OVERHEAD_BYTES;
    return true;
  }

  clear(): void {
    this.#blobs.clear();
    this.#bytes = 0;
  }
}
