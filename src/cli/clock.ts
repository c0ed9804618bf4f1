import type { CommandModule } from 'yargs';
import type { CliContext } from './context.js';
import type { ClockControls, ClockSettings, ClockState } from '../index.js';
import { controlCommand, printAs } from './remote.js';

/** One line for people: "2025-01-01T00:00:00.000Z, frozen, 2d ahead of real time". */
export function describeClock(state: ClockState): string {
  const skew =
    state.offsetMs === 0
      ? 'real time'
      : `${state.offset.replace(/^-/, '')} ${state.offsetMs < 0 ? 'behind' : 'ahead of'} real time`;
  return `${state.now}, ${state.frozen ? 'frozen' : 'running'}, ${skew}`;
}

/** serve's --clock-frozen or --clock-offset as startMock's clock option (the table makes them conflict). */
export function clockOptionsOf(args: { 'clock-offset'?: string; 'clock-frozen'?: string }): ClockSettings | undefined {
  if (args['clock-frozen'] !== undefined) return { frozen: args['clock-frozen'] };
  if (args['clock-offset'] !== undefined) return { offset: args['clock-offset'] };
  return undefined;
}

interface ValueArgs {
  value?: string;
}

/** The value typed after the subcommand; a negative duration comes after "--", which yargs leaves in `_`. */
function valueOf(args: ValueArgs & { _: Array<string | number> }, required: boolean): string | undefined {
  const value = args.value ?? (args._[2] === undefined ? undefined : String(args._[2]));
  if (value === undefined && required)
    throw new Error(
      `${String(args._[1])}: give a value (a negative duration after "--": csp-mock clock ${String(args._[1])} -- -5m)`,
    );
  return value;
}

/** One subcommand: its words, what it does, the call it makes, an example, and the value it takes if any. */
interface ClockAction {
  command: string;
  describe: string;
  run(clock: ClockControls, value: string | undefined): Promise<ClockState>;
  example: [string, string];
  value?: { describe: string; required: boolean };
}

const DURATION = 'a duration: 2d, 90s, 1h30m (after "--" when negative: -- -5m)';
const TIME = 'an ISO time with its zone';

const ACTIONS: readonly ClockAction[] = [
  {
    command: 'show',
    describe: "print the mock's time",
    run: (c) => c.state(),
    example: ['clock show', 'its time, frozen or running, and skew'],
  },
  {
    command: 'set [value]',
    describe: 'put the clock at a time (a running clock runs on from there)',
    run: (c, v) => c.set(v!),
    example: ['clock set 2025-01-01T00:00:00Z', ''],
    value: { describe: TIME, required: true },
  },
  {
    command: 'advance [value]',
    describe: 'move the clock forward (or back)',
    run: (c, v) => c.advance(v!),
    example: ['clock advance 2d', 'two days on: trash ages, locks expire'],
    value: { describe: DURATION, required: true },
  },
  {
    command: 'offset [value]',
    describe: 'run the clock this far from real time (unfreezes it)',
    run: (c, v) => c.offset(v!),
    example: ['clock offset -- -5m', 'five minutes slow'],
    value: { describe: DURATION, required: true },
  },
  {
    command: 'freeze [value]',
    describe: 'stop the clock (where it stands, or at a time)',
    run: (c, v) => c.freeze(v),
    example: ['clock freeze 2025-01-01T00:00:00Z', ''],
    value: { describe: `${TIME} (default: now)`, required: false },
  },
  { command: 'resume', describe: 'let a frozen clock run on', run: (c) => c.resume(), example: ['clock resume', ''] },
  {
    command: 'reset',
    describe: "back to the scenario's clock (or serve's options); the state is untouched",
    run: (c) => c.reset(),
    example: ['clock reset', ''],
  },
];

/** `csp-mock clock show|set|advance|offset|freeze|resume|reset`: the running mock's clock. */
export const clockCommand = (cli: CliContext): CommandModule<object, object> => ({
  command: 'clock',
  describe: "show or move a running mock's clock (entity times, Date, Last-Modified, lock expiry)",
  builder: (y) => {
    for (const { command, describe, run, example, value } of ACTIONS)
      y.command(
        controlCommand<ValueArgs>(cli, {
          command,
          describe,
          json: 'print the clock as JSON',
          options: (c) =>
            (value
              ? c.positional('value', { type: 'string', demandOption: value.required, describe: value.describe })
              : c
            ).example(`$0 ${example[0]}`, example[1]) as never,
          run: async (mock, args) =>
            printAs(cli, args.json, await run(mock.clock, valueOf(args, value?.required ?? false)), describeClock),
        }),
      );
    return y
      .demandCommand(
        1,
        'say "show", "set TIME", "advance DURATION", "offset DURATION", "freeze [TIME]", "resume" or "reset"',
      )
      .example('$0 clock advance 2d', '')
      .example('$0 clock show --json', '');
  },
  handler: () => undefined,
});
