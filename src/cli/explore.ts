import { resolve, sep } from 'node:path';
import type { CommandModule } from 'yargs';
import { CliError, type CliContext } from './context.js';
import { controlCommand, type ControlArgs } from './remote.js';

export const convergeCommand = (cli: CliContext): CommandModule<object, ControlArgs & { dir: string; user: string }> =>
  controlCommand<{ dir: string; user: string }>(cli, {
    command: 'converge',
    describe:
      "check that a synced folder holds what a user's tree in a running mock holds (names, kinds, sizes, contents; no content under two names); exit 1 with the differences",
    json: 'the report as JSON',
    options: (y) =>
      y
        .option('dir', { type: 'string', demandOption: true, describe: 'the folder a sync client keeps' })
        .option('user', { type: 'string', default: 'demo', describe: 'whose tree the folder mirrors' }),
    run: async (mock, args) => {
      const { convergeText } = await import('../converge/oracle.js');
      const report = await mock.converge(args.dir, { user: args.user });
      cli.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : convergeText(report, args.dir));
      if (!report.converged) cli.exitCode = 1;
    },
  });

interface ExploreArgs {
  client: string;
  dir: string;
  runs?: number;
  seed?: number;
  steps: number;
  scenario?: string;
  user?: string;
  kinds?: string[];
  out?: string;
  json: boolean;
  replay?: string;
  'client-state'?: string;
  'pass-timeout': string;
  shrink: boolean;
  url?: string;
}

const REWRITE = '\r\x1b[K';

export const exploreCommand = (cli: CliContext): CommandModule<object, ExploreArgs> => ({
  command: 'explore',
  describe:
    "find a sync client's bugs: run it (a command doing one pass of --dir) through seeded schedules of faults, local edits, another device's changes and clock jumps against a mock of its own; shrink a failure to a repro file; exit 1 when something is found",
  builder: (y) =>
    y
      .option('client', {
        type: 'string',
        demandOption: true,
        describe:
          'the command doing one sync pass (run by the shell with CSP_SYNC_DIR, CSP_MOCK_URL, CSP_MOCK_USER, CSP_MOCK_PASSWORD set)',
      })
      .option('dir', {
        type: 'string',
        default: 'explore-sync',
        describe: 'the folder it syncs: empty or new; cleared between runs',
      })
      .option('runs', { type: 'number', describe: 'how many runs (default 10; with --replay 1)' })
      .option('seed', { type: 'number', describe: "the first run's seed (default: a random one, reported)" })
      .option('steps', { type: 'number', default: 20, describe: 'steps in a run' })
      .option('scenario', {
        type: 'string',
        describe: 'the scenario whose seed a run starts from (default: the demo tree)',
      })
      .option('user', { type: 'string', describe: 'NAME:PASSWORD the client logs in with (default demo:demo)' })
      .option('kinds', {
        type: 'string',
        array: true,
        choices: ['faults', 'local', 'device', 'clock'],
        describe: 'what schedules draw (default all)',
      })
      .option('client-state', {
        type: 'string',
        describe: "the client's own state beside the folder, cleared before each run",
      })
      .option('pass-timeout', {
        type: 'string',
        default: '60s',
        describe: 'a pass running longer is killed and reported',
      })
      .option('out', { type: 'string', describe: 'the repro file (default explore-repro-<seed>.json)' })
      .option('replay', {
        type: 'string',
        describe: "rerun a repro file's schedule: exit 1 while the bug is there, 0 once fixed",
      })
      .option('shrink', {
        type: 'boolean',
        default: true,
        describe: 'shrink a failing schedule (--no-shrink: keep it whole)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'the report as JSON' })
      .option('url', { type: 'string', hidden: true }),
  handler: async (args) => {
    // --url is taken by the control commands; explore refuses it rather than drive someone else's mock.
    if (cli.argv.some((a) => a === '--url' || a.startsWith('--url=')))
      throw new CliError(
        'explore starts a mock of its own (its clock and scenario belong to the run): it takes no --url',
      );
    const dir = resolve(args.dir);
    const inside = dir.startsWith(process.cwd() + sep);
    if (!inside && !cli.argv.some((a) => a === '--dir' || a.startsWith('--dir=')))
      throw new CliError(`explore: ${dir} is outside the current folder: name it with --dir on the command line`);
    const [{ explore, writeBundle, MAX_PASS_MS }, { exploreText }, { parseDuration }] = await Promise.all([
      import('../explore/explore.js'),
      import('../explore/report-text.js'),
      import('../clock/durations.js'),
    ]);
    const [user, ...rest] = (args.user ?? 'demo:demo').split(':');
    if (!user || rest.length === 0) throw new CliError('--user must be NAME:PASSWORD');
    const given = args['pass-timeout'];
    let passTimeoutMs: number;
    try {
      passTimeoutMs = parseDuration(/^\d+$/.test(given) ? `${given}s` : given);
    } catch (err) {
      throw new CliError(`--pass-timeout: ${(err as Error).message}`);
    }
    if (!(passTimeoutMs >= 1 && passTimeoutMs <= MAX_PASS_MS))
      throw new CliError(`--pass-timeout must be from 1ms to 24h (a hung pass is killed after it), got ${given}`);
    const tty = cli.progressTo?.isTTY === true && !args.json;
    const report = await explore({
      client: args.client,
      dir,
      runs: args.runs,
      seed: args.seed,
      steps: args.steps,
      scenario: args.scenario,
      user,
      password: rest.join(':'),
      kinds: args.kinds as Array<'faults' | 'local' | 'device' | 'clock'> | undefined,
      clientState: args['client-state'],
      passTimeoutMs,
      shrink: args.shrink,
      replay: args.replay,
      onProgress: (p) => {
        if (!tty) return;
        const doing = p.shrinking
          ? `shrinking to ${p.shrinking.steps} steps (try ${p.shrinking.tries}), step ${p.step}`
          : `step ${p.step} of ${p.steps}`;
        const findings = `${p.findings} finding${p.findings === 1 ? '' : 's'}`;
        cli.progressTo!.write(`${REWRITE}explore: run ${p.run} of ${p.runs}, ${doing}, ${findings}`);
      },
    });
    if (tty) cli.progressTo!.write(REWRITE);
    let bundleFile =
      report.bundle && !args.replay ? (args.out ?? `explore-repro-${report.bundle.seed}.json`) : undefined;
    // What was found is printed even when its repro file cannot be written.
    let unwritten: Error | undefined;
    if (bundleFile && report.bundle)
      await writeBundle(resolve(bundleFile), report.bundle).catch((err: Error) => {
        unwritten = err;
        bundleFile = undefined;
      });
    cli.stdout(
      args.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : exploreText(report, { client: args.client, bundleFile, replay: args.replay }),
    );
    if (report.failure || (report.reproduced ?? 0) > 0) cli.exitCode = 1;
    if (unwritten) throw new CliError(unwritten.message);
  },
});
