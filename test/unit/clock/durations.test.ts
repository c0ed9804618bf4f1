import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseInstant } from '../../../src/clock/durations.js';

describe('durations and times as people write them', () => {
  it.each([
    ['90s', 90_000],
    ['2d', 172_800_000],
    ['-5m', -300_000],
    ['+1h', 3_600_000],
    ['1.5s', 1500],
    ['80ms', 80],
    ['1h30m', 5_400_000],
    ['-1d12h', -129_600_000],
    ['1w', 604_800_000],
    [' 2d ', 172_800_000],
    [250, 250],
    [-42, -42],
  ] as const)('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', 'm', '2 d', '2days', '1h-30m', '--5m', 'soon', '5mm'])(
    'refuses %j, saying what it takes',
    (text) => {
      expect(() => parseDuration(text)).toThrow(/is not a duration: write a number with a unit/);
    },
  );

  it('refuses non-finite numbers and other types', () => {
    expect(() => parseDuration(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => parseDuration(null)).toThrow(/got null/);
    expect(() => parseDuration({})).toThrow(/got object/);
  });

  it('writes durations back in the largest units', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(-300_000)).toBe('-5m');
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(172_800_250)).toBe('2d250ms');
    expect(parseDuration(formatDuration(-129_600_001))).toBe(-129_600_001);
  });

  it('reads ISO times with a zone, dates, ms and Dates; refuses a time without a zone (it would depend on the host)', () => {
    expect(parseInstant('2025-01-01T00:00:00Z')).toBe(Date.UTC(2025, 0, 1));
    expect(parseInstant('2025-01-01T02:00:00+02:00')).toBe(Date.UTC(2025, 0, 1));
    expect(parseInstant('2025-01-01')).toBe(Date.UTC(2025, 0, 1));
    expect(parseInstant(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(parseInstant(new Date(5))).toBe(5);
    expect(() => parseInstant('2025-01-01T00:00:00')).toThrow(/with its zone/);
    expect(() => parseInstant('yesterday')).toThrow(/is not a time/);
    expect(() => parseInstant('2025-13-45T00:00:00Z')).toThrow(/is not a time/);
    expect(() => parseInstant(new Date(Number.NaN))).toThrow(/valid Date/);
  });
});
