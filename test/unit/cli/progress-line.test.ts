import { describe, expect, it } from 'vitest';
import { ProgressLine, type ProgressOutput } from '../../../src/cli/progress-line.js';
import type { Progress } from '../../../src/options.js';

/** A stream that keeps what is written, a terminal or not. */
function fakeStream(isTTY: boolean): ProgressOutput & { text: string; writes: string[] } {
  const writes: string[] = [];
  return {
    isTTY,
    writes,
    get text() {
      return writes.join('');
    },
    write: (text: string) => writes.push(text),
  };
}

/** A clock the test moves. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const generating = (done: number, total = 10_000): Progress => ({
  task: 'generate',
  done,
  total,
  unit: 'objects',
  finished: done === total,
});

describe('the progress line', () => {
  it('on a terminal draws counts and a rate on one line, rewritten in place, and ends it with a final line', () => {
    const out = fakeStream(true);
    const clock = fakeClock();
    const line = new ProgressLine(out, { now: clock.now });
    line.report(generating(1000));
    clock.advance(500);
    line.report(generating(5000));
    clock.advance(500);
    line.report(generating(10_000));
    expect(out.writes).toEqual([
      '\r\x1b[Kcsp-mock: generating accounts: 1,000 of 10,000 objects (10%)',
      '\r\x1b[Kcsp-mock: generating accounts: 5,000 of 10,000 objects (50%), 10,000 objects/s',
      '\r\x1b[Kcsp-mock: generated 10,000 objects in 1.0 s, 10,000 objects/s\n',
    ]);
  });

  it('redraws at most once per 200 ms of the clock it is given, however many reports arrive', () => {
    const out = fakeStream(true);
    const clock = fakeClock();
    const line = new ProgressLine(out, { now: clock.now });
    for (let done = 1; done < 1000; done++) {
      line.report(generating(done, 1000));
      clock.advance(10);
    }
    // 999 reports over 9.99 s: the first, then one each 200 ms.
    expect(out.writes).toHaveLength(50);
    expect(out.writes.every((w) => w.startsWith('\r\x1b[K') && !w.includes('\n'))).toBe(true);
    line.report(generating(1000, 1000));
    expect(out.writes.at(-1)).toBe('\r\x1b[Kcsp-mock: generated 1,000 objects in 10.0 s, 100 objects/s\n');
  });

  it('writes nothing at all when the stream is not a terminal (a pipe or a log file gets no carriage returns)', () => {
    const out = fakeStream(false);
    const clock = fakeClock();
    const line = new ProgressLine(out, { now: clock.now });
    line.report(generating(1000));
    clock.advance(1000);
    line.report(generating(10_000));
    expect(out.writes).toEqual([]);
  });

  it('a task that only reports its end (small work) draws no line', () => {
    const out = fakeStream(true);
    const line = new ProgressLine(out, { now: fakeClock().now });
    line.report({ task: 'load', done: 4096, total: 4096, unit: 'bytes', finished: true });
    expect(out.writes).toEqual([]);
  });

  it('says bytes in MiB, and names each task in its own words', () => {
    const out = fakeStream(true);
    const clock = fakeClock();
    const line = new ProgressLine(out, { now: clock.now });
    line.report({ task: 'load', done: 2 * 2 ** 20, total: 8 * 2 ** 20, unit: 'bytes', finished: false });
    clock.advance(2000);
    line.report({ task: 'load', done: 8 * 2 ** 20, total: 8 * 2 ** 20, unit: 'bytes', finished: true });
    line.report({ task: 'verify', done: 100, total: 300, unit: 'exchanges', finished: false });
    line.report({ task: 'import-har', done: 500, total: 800, unit: 'entries', finished: false });
    expect(out.writes).toEqual([
      '\r\x1b[Kcsp-mock: reading the state file: 2.0 of 8.0 MiB (25%)',
      '\r\x1b[Kcsp-mock: read the state file 8.0 MiB in 2.0 s, 4.0 MiB/s\n',
      '\r\x1b[Kcsp-mock: verifying: 100 of 300 exchanges (33%)',
      '\r\x1b[Kcsp-mock: importing: 500 of 800 entries (62%)',
    ]);
  });
});
