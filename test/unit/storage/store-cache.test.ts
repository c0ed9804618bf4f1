import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreCache } from '../../../src/storage/store-cache.js';

describe("the store's one cache: blob bytes and what the store keeps beside them, within one bound", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csp-mock-store-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function blob(id: string, size: number): Promise<string> {
    const path = join(dir, id);
    await writeFile(path, Buffer.alloc(size, id));
    return path;
  }

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
