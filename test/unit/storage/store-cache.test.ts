import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreCache } from '../../../src/storage/store-cache.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('store-cache');

/** A blob file of `size` bytes, named `id`. */
async function blob(id: string, size: number): Promise<string> {
  const path = join(dir.path, id);
  await writeFile(path, Buffer.alloc(size, id));
  return path;
}

/** Blob `id` of `size` bytes, read through the cache. */
async function read(cache: StoreCache, id: string, size: number): Promise<Buffer | undefined> {
  return cache.read(id, await blob(id, size), size);
}

describe('StoreCache: bounded by bytes, least recently used first', () => {
  it('never holds more than its bound, drops the least recently used, and leaves large blobs alone', async () => {
    const cache = new StoreCache(100, 40);
    for (const id of ['a', 'b', 'c']) await read(cache, id, 30);
    expect(cache.bytes).toBe(90);
    cache.get('a'); // now b is the least recently used
    await read(cache, 'd', 30);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(['a', 'b', 'c', 'd'].map((id) => cache.get(id) !== undefined)).toEqual([true, false, true, true]);
    expect(await read(cache, 'big', 41)).toBeUndefined();
    expect(cache.get('big')).toBeUndefined();
    for (let i = 0; i < 20; i++) {
      expect((await read(cache, `n${i}`, 7 + i))?.length).toBe(7 + i);
      expect(cache.bytes).toBeLessThanOrEqual(100);
    }
    cache.clear();
    expect(cache.bytes).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('concurrent misses read a blob once; a delete during the read keeps it out; an unreadable blob is a miss', async () => {
    const cache = new StoreCache(100, 40);
    const path = await blob('x', 20);
    const [one, two] = await Promise.all([cache.read('x', path, 20), cache.read('x', path, 20)]);
    expect(one).toBe(two);
    cache.delete('x');
    expect(cache.bytes).toBe(0);
    const reading = cache.read('x', path, 20);
    cache.delete('x');
    expect(await reading).toBeUndefined();
    expect(cache.get('x')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    expect(await cache.read('gone', join(dir.path, 'gone'), 5)).toBeUndefined();
  });

  it('a size of 0 keeps nothing: every read streams', async () => {
    const cache = new StoreCache(0);
    expect(await read(cache, 'a', 10)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe("the store's one cache: blob bytes and what the store keeps beside them, within one bound", () => {
  it("a shelf's entries and blob bytes share the bound: the least recently used goes first, whatever its kind", async () => {
    const cache = new StoreCache(100, 60);
    const listings = cache.shelf<string[]>('listing');
    await cache.read('a', await blob('a', 40), 40);
    listings.set('big', ['x'], 40);
    expect(cache.bytes).toBe(80);
    cache.get('a'); // now the listing is the least recently used
    await cache.read('b', await blob('b', 30), 30);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(listings.get('big')).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([2, 70]); // a and b
    listings.set('big', ['y'], 50);
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(cache.get('a')).toBeUndefined(); // a was used before b, so it went
    expect(listings.get('big')).toEqual(['y']);
  });

  it("a shelf's keys never meet a blob id or another shelf's keys", async () => {
    const cache = new StoreCache(1000);
    const listings = cache.shelf<string>('listing');
    const makers = cache.shelf<string>('synthetic');
    await cache.read('same', await blob('same', 10), 10);
    listings.set('same', 'a listing', 10);
    makers.set('same', 'a maker', 10);
    expect(cache.get('same')?.length).toBe(10);
    expect(listings.get('same')).toBe('a listing');
    expect(makers.get('same')).toBe('a maker');
    listings.delete('same');
    expect([cache.get('same') !== undefined, listings.get('same'), makers.peek('same')]).toEqual([
      true,
      undefined,
      'a maker',
    ]);
    cache.delete('same');
    expect(makers.get('same')).toBe('a maker');
    expect(cache.size).toBe(1);
  });

  it('with a bound of 0 nothing is kept, on any shelf', async () => {
    const cache = new StoreCache(0);
    const shelf = cache.shelf<string>('listing');
    shelf.set('k', 'v', 1);
    expect(shelf.get('k')).toBeUndefined();
    expect(await cache.read('a', await blob('a', 5), 5)).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
