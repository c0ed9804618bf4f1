import { checkClockTime, formatDuration, LATEST_MS, parseDuration, parseInstant, TimeValueError } from './durations.js';

/**
 * The wall clock the mock shows its clients: entity times, Date and Last-Modified, lock expiry, the
 * recycle bin's dates. Durations the mock measures (latency, timeouts, the journal's durationMs) stay
 * on real monotonic time: a frozen clock must not stop a delay from ending.
 */
export interface Clock {
  /** Milliseconds since 1970 as the mock sees them. */
  now(): number;
}

/** The host's own time. */
export const systemClock: Clock = { now: () => Date.now() };

/** How a clock starts: skewed from real time by `offset`, or stopped at `frozen` (at most one of the two). */
export interface ClockSettings {
  /** A duration ("-5m", "2d", or ms): the mock's time runs this far ahead (behind, when negative) of real time. */
  offset?: string | number;
  /** An ISO time with its zone ("2025-01-01T00:00:00Z") or ms since 1970: the clock stands still there. */
  frozen?: string | number;
}

/** What a clock shows, as the admin API and `clock show` report it. */
export interface ClockState {
  /** The mock's time now (ISO). */
  now: string;
  /** True when the clock stands still (frozen); it moves only by set and advance. */
  frozen: boolean;
  /** How far the mock's time is from real time, in ms (for a frozen clock: at this moment). */
  offsetMs: number;
  /** offsetMs for people: "-5m", "2d", "0ms". */
  offset: string;
}

/** A saved position of a clock, to put it back when a switch fails. */
export interface ClockMemo {
  readonly frozenAt: number | undefined;
  readonly offsetMs: number;
}

/** The settings checked: at most one of offset and frozen, each readable. Throws TimeValueError naming the key. */
export function checkClockSettings(value: unknown): ClockSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TimeValueError('clock must be an object: {"offset": "-5m"} or {"frozen": "2025-01-01T00:00:00Z"}');
  const settings = value as Record<string, unknown>;
  const unknown = Object.keys(settings).filter((k) => k !== 'offset' && k !== 'frozen');
  if (unknown.length > 0)
    throw new TimeValueError(`clock takes "offset" or "frozen", not ${unknown.map((k) => `"${k}"`).join(', ')}`);
  if (settings['offset'] !== undefined && settings['frozen'] !== undefined)
    throw new TimeValueError('clock takes "offset" or "frozen", not both (a frozen clock does not run)');
  const checked: ClockSettings = {};
  if (settings['offset'] !== undefined) {
    named('clock.offset', () => checkClockTime(Date.now() + parseDuration(settings['offset']), 'the clock would show'));
    checked.offset = settings['offset'] as string | number;
  }
  if (settings['frozen'] !== undefined) {
    named('clock.frozen', () => parseInstant(settings['frozen']));
    checked.frozen = settings['frozen'] as string | number;
  }
  return checked;
}

/** Runs `read`, naming `field` in what it throws. */
function named<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new TimeValueError(`${field}: ${(err as Error).message}`);
  }
}

const WOULD_SHOW = 'the clock would show';

/**
 * One mock's clock. It starts from the options' settings; a scenario with a `clock` applies its own on a
 * switch or reset (one without goes back to the options'); run-time calls move it until then.
 */
export class MockClock implements Clock {
  readonly #base: ClockSettings | undefined;
  readonly #real: () => number;
  #frozenAt: number | undefined;
  #offsetMs = 0;
  /** The last Date text made and the second it shows: every answer carries one, most in the same second. */
  #dateSecond = NaN;
  #dateText = '';

  constructor(base?: ClockSettings, real: () => number = () => Date.now()) {
    this.#base = base === undefined ? undefined : checkClockSettings(base);
    this.#real = real;
    this.apply(undefined);
  }

  /** Stops at the end of 9999: set near it, a running clock would go on to times no date, ISO text or state file can hold. */
  now(): number {
    return Math.min(this.#frozenAt ?? this.#real() + this.#offsetMs, LATEST_MS);
  }

  /** Whole seconds since 1970: what entities store. */
  seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /**
   * The time for a Date header (RFC 9110 IMF-fixdate). The text is made again whenever the clock shows
   * another second, however it got there (running on, set, advanced), so it is never stale.
   */
  httpDate(): string {
    const second = Math.floor(this.now() / 1000);
    if (second !== this.#dateSecond) {
      this.#dateSecond = second;
      this.#dateText = new Date(second * 1000).toUTCString();
    }
    return this.#dateText;
  }

  state(): ClockState {
    const now = this.now();
    const offsetMs = now - this.#real();
    return {
      now: new Date(now).toISOString(),
      frozen: this.#frozenAt !== undefined,
      offsetMs,
      offset: formatDuration(offsetMs),
    };
  }

  // Each change is worked out and checked whole before any field moves: a refused one leaves the clock as it was.

  /** Puts the clock at `time` (ISO or ms); a running clock runs on from there, a frozen one stays frozen there. */
  set(time: string | number | Date): ClockState {
    const at = named('set', () => parseInstant(time));
    if (this.#frozenAt !== undefined) this.#frozenAt = at;
    else this.#offsetMs = at - this.#real();
    return this.state();
  }

  /** Moves the clock by `duration` ("2d", "-90s", ms), frozen or running. */
  advance(duration: string | number): ClockState {
    const ms = named('advance', () => {
      const by = parseDuration(duration);
      checkClockTime(this.now() + by, WOULD_SHOW);
      return by;
    });
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    // From the time shown: held at the end of 9999, the clock moves back from there.
    else this.#offsetMs = this.now() + ms - this.#real();
    return this.state();
  }

  /** Runs the clock at real time plus `duration` (unfreezing it). */
  offset(duration: string | number): ClockState {
    this.#offsetMs = named('offset', () => this.#checkedOffset(duration));
    this.#frozenAt = undefined;
    return this.state();
  }

  /** Stops the clock at `time`, or where it is now. */
  freeze(time?: string | number | Date): ClockState {
    this.#frozenAt = time === undefined ? this.now() : named('freeze', () => parseInstant(time));
    return this.state();
  }

  /** Lets a frozen clock run again from where it stands. */
  resume(): ClockState {
    if (this.#frozenAt !== undefined) {
      this.#offsetMs = this.#frozenAt - this.#real();
      this.#frozenAt = undefined;
    }
    return this.state();
  }

  /** Starts over from `settings` (a scenario's), or from the options' when there are none. */
  apply(settings: ClockSettings | undefined): ClockState {
    const given = settings ?? this.#base;
    const frozenAt = given?.frozen === undefined ? undefined : named('clock.frozen', () => parseInstant(given.frozen!));
    const offsetMs = given?.offset === undefined ? 0 : named('clock.offset', () => this.#checkedOffset(given.offset!));
    this.#frozenAt = frozenAt;
    this.#offsetMs = offsetMs;
    return this.state();
  }

  #checkedOffset(duration: string | number): number {
    const ms = parseDuration(duration);
    checkClockTime(this.#real() + ms, WOULD_SHOW);
    return ms;
  }

  memo(): ClockMemo {
    return { frozenAt: this.#frozenAt, offsetMs: this.#offsetMs };
  }

  restore(memo: ClockMemo): void {
    this.#frozenAt = memo.frozenAt;
    this.#offsetMs = memo.offsetMs;
  }
}
