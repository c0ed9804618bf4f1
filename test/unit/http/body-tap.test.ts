import { describe, expect, it } from 'vitest';
import { CappedBytes } from '../../../src/http/body-tap.js';

describe('CappedBytes (the journal and verbose log body tap)', () => {
  it('keeps a copy of the first `limit` bytes and counts the rest, whatever the chunk types', () => {
    const capped = new CappedBytes(6);
    const big = Buffer.alloc(8 * 1024 * 1024, 'b');
    const first = new Uint8Array(Buffer.from('abcd'));
    capped.add(first);
    capped.add('éz', 'utf8');
    capped.add(big.subarray(10));
    capped.add(undefined);
    first.fill(0); // the caller may reuse its chunk: the kept bytes are a copy
    expect(capped.bytes().toString('utf8')).toBe('abcdé');
    expect(capped.total).toBe(4 + 3 + big.length - 10);
  });

  it('keeps nothing with a zero limit but still counts', () => {
    const capped = new CappedBytes(0);
    capped.add(Buffer.alloc(1000));
    expect(capped.bytes().length).toBe(0);
    expect(capped.total).toBe(1000);
  });
});
