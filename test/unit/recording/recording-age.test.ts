import { describe, expect, it } from 'vitest';
import { parseMaxAge } from '../../../src/recording/recording-age.js';

describe('parseMaxAge: a positive duration, read by the one duration parser of the clock', () => {
  it.each([
    ['45s', 45_000],
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['2w', 14 * 86_400_000],
    [' 7d ', 7 * 86_400_000],
    ['1.5d', 36 * 3_600_000],
    ['1h30m', 90 * 60_000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseMaxAge(text)).toBe(ms);
  });

  it.each(['30', '30 days', '-1d', '0s', 'd', '30y', '', `${'9'.repeat(401)}d`])(
    'refuses %j naming the form it takes',
    (text) => {
      expect(() => parseMaxAge(text)).toThrow(
        /^--max-age must be a positive duration with a unit \(ms, s, m, h, d or w\), e\.g\. 30d/,
      );
    },
  );
});
