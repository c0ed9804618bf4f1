import { describe, expect, it } from 'vitest';
import { bytesPerSecond } from '../../../src/scenarios/network/byte-rate.js';
import { BYTE_UNITS, parseByteSize, parseBytes } from '../../../src/scenarios/byte-units.js';

describe('one table of byte units for sizes and rates', () => {
  it('every byte unit reads the same as a generated size and as a rate per second; bits are for rates only', () => {
    for (const unit of Object.keys(BYTE_UNITS)) {
      expect(bytesPerSecond(`1 ${unit}/s`), unit).toBe(parseByteSize(`1 ${unit}`));
    }
    expect(bytesPerSecond('8 Mbit/s')).toBe(parseByteSize('1 MB'));
    expect(parseByteSize('8 Mbit')).toBeUndefined();
  });

  it('sizes and rates are read by one parser: the same digits (at most 15 either side of the point) and spacing', () => {
    for (const [text, bytes] of [
      ['1 TB', 1e12],
      [' 2.5GiB ', 2.5 * 1024 ** 3],
      ['0.5 B', 0.5],
      [`${'9'.repeat(15)} B`, 999_999_999_999_999],
    ] as const) {
      expect(parseBytes(text), text).toBe(bytes);
      expect(bytesPerSecond(`${text.trim()}/s`), `${text}/s`).toBe(bytes);
    }
    for (const text of [`${'9'.repeat(16)} B`, '1e3 B', '1 PB', '-1 B', '1..5 B', '']) {
      expect(parseBytes(text), text).toBeUndefined();
      expect(bytesPerSecond(`${text}/s`), `${text}/s`).toBeUndefined();
    }
    // A bare number is a size of bytes; a rate names its unit.
    expect(parseBytes('4096')).toBe(4096);
    expect(bytesPerSecond('4096/s')).toBeUndefined();
  });
});
