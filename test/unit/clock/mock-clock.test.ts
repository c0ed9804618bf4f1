import { describe, expect, it } from 'vitest';
import { checkClockSettings, MockClock } from '../../../src/clock/mock-clock.js';

/** A clock over a real time the test moves by hand. */
function clockAt(realMs: number, base?: ConstructorParameters<typeof MockClock>[0]) {
  const real = { ms: realMs };
  return { clock: new MockClock(base, () => real.ms), real };
}

describe('MockClock', () => {
  it('runs with real time, skewed by an offset; advance and set move it and it keeps running', () => {
    const { clock, real } = clockAt(1_000_000, { offset: '-5m' });
    expect(clock.now()).toBe(1_000_000 - 300_000);
    real.ms += 10_000;
    expect(clock.now()).toBe(1_010_000 - 300_000);
    clock.advance('1m');
    expect(clock.state()).toMatchObject({ frozen: false, offsetMs: -240_000, offset: '-4m' });
    clock.set(5_000_000);
    real.ms += 1000;
    expect(clock.now()).toBe(5_001_000);
  });

  it('a clock set a second before the end of 9999 stops there as real time runs on (a state file holds no later time)', () => {
    const { clock, real } = clockAt(1_000_000);
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    clock.set(last - 1000);
    real.ms += 5000;
    expect(clock.now()).toBe(last);
    expect(clock.httpDate()).toBe('Fri, 31 Dec 9999 23:59:59 GMT');
    expect(clock.state().now).toBe('9999-12-31T23:59:59.999Z');
    real.ms += 3_600_000;
    clock.advance('-1h');
    expect(clock.now()).toBe(last - 3_600_000);
  });

  it('a frozen clock stands still while real time passes; advance, set and resume move it from there', () => {
    const { clock, real } = clockAt(1_000_000, { frozen: '2025-01-01T00:00:00Z' });
    const frozen = Date.UTC(2025, 0, 1);
    real.ms += 60_000;
    expect(clock.now()).toBe(frozen);
    expect(clock.seconds()).toBe(frozen / 1000);
    expect(clock.httpDate()).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
    clock.advance('2d');
    expect(clock.now()).toBe(frozen + 172_800_000);
    clock.set('2025-01-01T00:00:00Z');
    clock.resume();
    real.ms += 500;
    expect(clock.now()).toBe(frozen + 500);
    clock.freeze();
    real.ms += 500;
    expect(clock.now()).toBe(frozen + 500);
  });

  it("apply starts over from a scenario's settings, or the options' when it has none; memo and restore put it back", () => {
    const { clock } = clockAt(1_000_000, { offset: '1h' });
    clock.apply({ frozen: 42 });
    expect(clock.now()).toBe(42);
    const memo = clock.memo();
    clock.offset('3d');
    clock.restore(memo);
    expect(clock.now()).toBe(42);
    clock.apply(undefined);
    expect(clock.state()).toMatchObject({ frozen: false, offsetMs: 3_600_000 });
  });

  it('checks settings: one of offset and frozen, each readable, with the field named', () => {
    expect(checkClockSettings({ offset: '-5m' })).toEqual({ offset: '-5m' });
    expect(() => checkClockSettings({ offset: '1m', frozen: 0 })).toThrow(/not both/);
    expect(() => checkClockSettings({ skew: '1m' })).toThrow(/not "skew"/);
    expect(() => checkClockSettings({ offset: 'x' })).toThrow(/^clock\.offset: "x" is not a duration/);
    expect(() => checkClockSettings({ frozen: 'x' })).toThrow(/^clock\.frozen: "x" is not a time/);
    expect(() => checkClockSettings('5m')).toThrow(/clock must be an object/);
  });
});
