import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import type { ClockControls, ClockSettings, ClockState } from '../index.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

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

interface ClockArgs extends RemoteArgs {
  json: boolean;
  value?: string;
  _: Array<string | number>;
}

/** The value typed after the subcommand; a negative duration comes after "--", which yargs leaves in `_`. */
function valueOf(args: ClockArgs, required: boolean): string | undefined {
  const value = args.value ?? (args._[2] === undefined ? undefined : String(args._[2]));
  if (value === undefined && required)
    throw new Error(
      `${String(args._[1])}: give a value (a negative duration after "--": csp-mock clock ${String(args._[1])} -- -5m)`,
    );
  return value;
}

/** One subcommand: its words, what it does, and the call it makes. */
function action(
  cli: CliContext,
  command: string,
  describe: string,
  run: (clock: ClockControls, value: string | undefined) => Promise<ClockState>,
  example: [string, string],
  positional?: { describe: string; required: boolean },
): CommandModule<object, ClockArgs> {
  return {
    command,
    describe,
    builder: (y) => {
      let built = withRemoteOptions(y).option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the clock as JSON',
      });
      if (positional)
        built = built.positional('value', {
          type: 'string',
          demandOption: positional.required,
          describe: positional.describe,
        });
      return built.example(`$0 ${example[0]}`, example[1]) as never;
    },
    handler: (args) =>
      withRemote(cli, args, async (mock) => {
        const state = await run(mock.clock, valueOf(args, positional?.required ?? false));
        printLine(cli, args.json ? JSON.stringify(state, null, 2) : describeClock(state));
      }),
  };
}

const DURATION = 'a duration: 2d, 90s, 1h30m (after "--" when negative: -- -5m)';

/** `csp-mock clock show|set|advance|offset|freeze|resume|reset`: the running mock's clock. */
export const clockCommand = (cli: CliContext): CommandModule<object, object> => ({
  command: 'clock',
  describe: "show or move a running mock's clock (entity times, Date, Last-Modified, lock expiry)",
  builder: (y) =>
    y
      .command(
        action(cli, 'show', "print the mock's time", (c) => c.state(), [
          'clock show',
          'its time, frozen or running, and skew',
        ]),
      )
      .command(
        action(
          cli,
          'set [value]',
          'put the clock at a time (a running clock runs on from there)',
          (c, v) => c.set(v!),
          ['clock set 2025-01-01T00:00:00Z', ''],
          { describe: 'an ISO time with its zone', required: true },
        ),
      )
      .command(
        action(
          cli,
          'advance [value]',
          'move the clock forward (or back)',
          (c, v) => c.advance(v!),
          ['clock advance 2d', 'two days on: trash ages, locks expire'],
          {
            describe: DURATION,
            required: true,
          },
        ),
      )
      .command(
        action(
          cli,
          'offset [value]',
          'run the clock this far from real time (unfreezes it)',
          (c, v) => c.offset(v!),
          ['clock offset -- -5m', 'five minutes slow'],
          { describe: DURATION, required: true },
        ),
      )
      .command(
        action(
          cli,
          'freeze [value]',
          'stop the clock (where it stands, or at a time)',
          (c, v) => c.freeze(v),
          ['clock freeze 2025-01-01T00:00:00Z', ''],
          { describe: 'an ISO time with its zone (default: now)', required: false },
        ),
      )
      .command(action(cli, 'resume', 'let a frozen clock run on', (c) => c.resume(), ['clock resume', '']))
      .command(
        action(
          cli,
          'reset',
          "back to the scenario's clock (or serve's options); the state is untouched",
          (c) => c.reset(),
          ['clock reset', ''],
        ),
      )
      .demandCommand(
        1,
        'say "show", "set TIME", "advance DURATION", "offset DURATION", "freeze [TIME]", "resume" or "reset"',
      )
      .example('$0 clock advance 2d', '')
      .example('$0 clock show --json', ''),
  handler: () => undefined,
});
