import { control, type Channel, type Feature } from '../feature.js';
import { HttpError } from '../http/errors.js';
import { applyClockAction, clockActionOf, type ClockAction, type ClockControls } from './clock-controls.js';
import { TimeValueError } from './durations.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import { checkClockSettings, type ClockState } from './mock-clock.js';

const badTime = (err: unknown): HttpError | undefined =>
  err instanceof TimeValueError ? new HttpError(400, err.message) : undefined;

/** GET /__admin/clock: the mock's clock. */
const clockState = control<void, ClockState>({
  method: 'GET',
  path: '/clock',
  read: () => undefined,
  send: () => ({}),
  run: (mock) => mock.clock.state(),
});

/**
 * POST /__admin/clock: one action ({"advance": "2d"}, {"set": TIME}, {"offset": "-5m"}, {"freeze": true|TIME},
 * {"resume": true}, {"reset": true}); answers with the clock after it.
 */
const moveClock = control<ClockAction, ClockState>({
  method: 'POST',
  path: '/clock',
  read: ({ body }) => clockActionOf(body),
  send: (action) => ({ body: action }),
  run: (mock, action) => applyClockAction(mock.clock, action, () => mock.scenarios.scenario.clock),
  answerOf: badTime,
});

const instant = (time: string | number | Date): string | number => (time instanceof Date ? time.toISOString() : time);

/** The clock's calls, alike in this process and over the admin API. */
export function clockControls(channel: Channel): ClockControls {
  const run = (action: ClockAction): Promise<ClockState> => channel.call(moveClock, action);
  return {
    now: async () => new Date((await channel.call(clockState, undefined)).now),
    state: () => channel.call(clockState, undefined),
    set: (time) => run({ set: instant(time) }),
    advance: (duration) => run({ advance: duration }),
    offset: (duration) => run({ offset: duration }),
    freeze: (time) => run({ freeze: time === undefined ? true : instant(time) }),
    resume: () => run({ resume: true }),
    reset: () => run({ reset: true }),
  };
}

/** The mock's clock: entity times, Date, Last-Modified and lock expiry read it; a test moves it. */
export const clockFeature: Feature = {
  name: 'clock',
  controls: [clockState, moveClock],
  // A scenario's `clock`: skewed or stopped while it is active.
  scenario: [
    {
      field: 'clock',
      definitions: ['clock'],
      check: (value, { source }) => {
        try {
          checkClockSettings(value);
        } catch (err) {
          const message = (err as Error).message;
          const field = /^(clock(?:\.\w+)?): /.exec(message);
          throw new ScenarioError(source, field?.[1] ?? 'clock', field ? message.slice(field[0].length) : message);
        }
      },
    },
  ],
};
