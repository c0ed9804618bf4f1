/** Lengths of time and points in time as people write them in scenario files, options and commands. */

/** Milliseconds in each unit a duration may be written in. */
export const UNIT_MS: Readonly<Record<'ms' | 's' | 'm' | 'h' | 'd' | 'w', number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;

/**
 * The times the mock's clock may show: from 1970 (entity times are whole seconds since then) to the end of
 * 9999 (the last year an ISO time and an HTTP date can write in four digits). Durations are bounded by the
 * same span, so no sum of them overflows what Date can hold.
 */
export const EARLIEST_MS = 0;
export const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const RANGE_TEXT = 'from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';

/** Thrown for a duration or time that cannot be read; the message says what was expected. */
export class TimeValueError extends Error {
  override readonly name = 'TimeValueError';
}

/**
 * Milliseconds from a duration: a number (milliseconds) or a string of parts with units, signed as a
 * whole: "90s", "2d", "-5m", "1.5s", "80ms", "1h30m".
 */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return withinSpan(value, String(value));
    throw new TimeValueError(`a duration must be a finite number of milliseconds, got ${String(value)}`);
  }
  if (typeof value !== 'string')
    throw new TimeValueError(`a duration must be a string like "90s" or a number of ms, got ${describe(value)}`);
  const text = value.trim();
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[+-]/, '');
  let total = 0;
  let read = 0;
  PART.lastIndex = 0;
  for (let match = PART.exec(body); match; match = PART.exec(body)) {
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    read = PART.lastIndex;
  }
  if (body.length === 0 || read !== body.length)
    throw new TimeValueError(
      `"${value}" is not a duration: write a number with a unit (ms, s, m, h, d, w), e.g. "90s", "2d", "-5m", "1h30m"`,
    );
  return withinSpan(sign * total, `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`);
}

function withinSpan(ms: number, shown: string): number {
  if (Math.abs(ms) <= LATEST_MS - EARLIEST_MS) return ms;
  throw new TimeValueError(`${shown} is longer than the clock's whole range (${RANGE_TEXT})`);
}

/** Refuses a time the mock's clock cannot show; `what` says what it is ("the clock would show"). */
export function checkClockTime(ms: number, what = 'the time'): number {
  if (Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS) return ms;
  const shown = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
  throw new TimeValueError(`${what} ${shown} is outside the clock's range (${RANGE_TEXT})`);
}

/** A duration for people: "-5m", "2d", "1h30m", "1.5s", "0ms". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0ms';
  let rest = Math.abs(ms);
  let text = '';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit];
    const whole = Math.floor(rest / size);
    if (whole > 0) {
      text += `${whole}${unit}`;
      rest -= whole * size;
    }
  }
  if (rest > 0) text += `${Math.round(rest * 1000) / 1000}ms`;
  return (ms < 0 ? '-' : '') + text;
}

/** A date, or a date and time with its zone (a time without one would depend on where the mock runs). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

/** Milliseconds since the epoch from an ISO time with a zone ("2025-01-01T00:00:00Z", "2025-01-01") or a number of ms. */
export function parseInstant(value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return checkClockTime(value);
    throw new TimeValueError(`a time must be an ISO string or milliseconds since 1970, got ${String(value)}`);
  }
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) return checkClockTime(value.getTime());
    throw new TimeValueError('a time must be a valid Date');
  }
  const parsed = typeof value === 'string' && ISO_TIME.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(parsed))
    throw new TimeValueError(
      `${typeof value === 'string' ? `"${value}"` : describe(value)} is not a time: write an ISO time with its zone, e.g. "2025-01-01T00:00:00Z"`,
    );
  return checkClockTime(parsed);
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
