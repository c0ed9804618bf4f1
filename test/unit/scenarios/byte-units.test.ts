import { describe, expect, it } from 'vitest';
import { BYTE_UNITS } from '../../../src/scenarios/byte-units.js';
import { bytesPerSecond } from '../../../src/scenarios/byte-rate.js';
import { parseByteSize } from '../../../src/scenarios/generate/size-distribution.js';

describe('one table of byte units for sizes and rates', () => {
  it('every byte unit reads the same as a generated size and as a rate per second; bits are for rates only', () => {
    for (const unit of Object.keys(BYTE_UNITS)) {
      expect(bytesPerSecond(`1 ${unit}/s`), unit).toBe(parseByteSize(`1 ${unit}`));
    }
    expect(bytesPerSecond('8 Mbit/s')).toBe(parseByteSize('1 MB'));
    expect(parseByteSize('8 Mbit')).toBeUndefined();
  });
});
