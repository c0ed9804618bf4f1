import { TimeValueError } from './durations.js';
import type { ClockSettings, ClockState, MockClock } from './mock-clock.js';

/**
 * A mock's clock as a test moves it: alike in this process (startMock, createApp, interceptCloud) and
 * through connectMock, so all are async. Durations are "2d", "90s", "-5m" or ms; times are ISO with a
 * zone, ms since 1970, or a Date. Each call answers with the clock's state after it.
 */
export interface ClockControls {
  /** The mock's time now. */
  now(): Promise<Date>;
  /** The time, whether the clock is frozen, and its offset from real time. */
  state(): Promise<ClockState>;
  /** Puts the clock at `time`; a running clock runs on from there, a frozen one stays there. */
  set(time: string | number | Date): Promise<ClockState>;
  /** Moves the clock by `duration` (negative: back), frozen or running. */
  advance(duration: string | number): Promise<ClockState>;
  /** Runs the clock at real time plus `duration` (unfreezing it). */
  offset(duration: string | number): Promise<ClockState>;
  /** Stops the clock at `time`, or where it is now. */
  freeze(time?: string | number | Date): Promise<ClockState>;
  /** Lets a frozen clock run on from where it stands. */
  resume(): Promise<ClockState>;
  /** Back to the active scenario's clock (or the options'), as a reset would set it; the state is untouched. */
  reset(): Promise<ClockState>;
}

/** One change to a clock, as the admin API takes it (`POST /__admin/clock`) and connectMock sends it. */
export type ClockAction =
  | { set: string | number }
  | { advance: string | number }
  | { offset: string | number }
  | { freeze: true | string | number }
  | { resume: true }
  | { reset: true };

const ACTIONS = ['set', 'advance', 'offset', 'freeze', 'resume', 'reset'] as const;

/** Reads an action from a parsed body; throws TimeValueError saying what is expected. */
export function clockActionOf(body: unknown): ClockAction {
  const expected =
    'send one of {"advance": "2d"}, {"set": "2025-01-01T00:00:00Z"}, {"offset": "-5m"}, {"freeze": true}, {"freeze": TIME}, {"resume": true}, {"reset": true}';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TimeValueError(expected);
  const keys = Object.keys(body);
  const key = keys[0];
  if (keys.length !== 1 || !ACTIONS.includes(key as (typeof ACTIONS)[number]))
    throw new TimeValueError(
      `${expected}; got ${keys.length === 0 ? 'an empty object' : keys.map((k) => `"${k}"`).join(', ')}`,
    );
  const value = (body as Record<string, unknown>)[key!];
  if ((key === 'resume' || key === 'reset') && value !== true) throw new TimeValueError(`${key} takes true`);
  if (key === 'freeze' && value !== true && typeof value !== 'string' && typeof value !== 'number')
    throw new TimeValueError('freeze takes true (where the clock stands) or a time');
  if (
    (key === 'set' || key === 'advance' || key === 'offset') &&
    typeof value !== 'string' &&
    typeof value !== 'number'
  )
    throw new TimeValueError(`${key} takes a ${key === 'set' ? 'time' : 'duration'} (a string or a number of ms)`);
  return body as ClockAction;
}

/** Carries an action out on `clock`; `scenarioClock` is the active scenario's `clock` (for reset). */
export function applyClockAction(
  clock: MockClock,
  action: ClockAction,
  scenarioClock: () => ClockSettings | undefined,
): ClockState {
  if ('set' in action) return clock.set(action.set);
  if ('advance' in action) return clock.advance(action.advance);
  if ('offset' in action) return clock.offset(action.offset);
  if ('freeze' in action) return clock.freeze(action.freeze === true ? undefined : action.freeze);
  if ('resume' in action) return clock.resume();
  return clock.apply(scenarioClock());
}
