import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import type { ClockState, RunningMock } from '../index.js';
import type { GenerateSpec } from '../scenarios/generate/generate-spec.js';
import { DEFAULT_USERS, parseUserSpec } from '../option-table.js';
import type { CliContext } from './context.js';
import {
  cannotStart,
  listenOptionsOf,
  announce,
  startListening,
  withListenOptions,
  type ListenArgs,
} from './listening.js';
import { withOptions, type OptionValues } from './option-flags.js';
import { adminTokenOf } from './remote.js';
import { watchScenario } from './watch-scenario.js';
import { progressTo } from './progress-line.js';
import { logLineFor } from './output-lines.js';
import { clockOptionsOf, describeClock } from './clock.js';

const SERVE_OPTIONS = [
  'generate',
  'max-memory',
  'clock-offset',
  'clock-frozen',
  'data',
  'compact-after',
  'queue-limit',
  'user',
  'public-url',
  'strict',
  'empty',
  'scenario',
  'watch',
  'admin-token',
  'admin-token-file',
  'journal-size',
  'journal-bodies',
  'content-cache-mib',
  'max-tenants',
  'tenant-idle',
] as const;

type ServeArgs = ListenArgs & Pick<OptionValues, (typeof SERVE_OPTIONS)[number]>;

/** A clock line on the ready screen only when the clock is not the host's. */
function clockShown(state: ClockState): Array<[string, string]> {
  return state.frozen || state.offsetMs !== 0 ? [['clock', describeClock(state)]] : [];
}

/** Objects in an account, its root left out (the users' trees are alike when generated). */
function objectsPerUser(mock: RunningMock): number {
  const users = mock.store.tree.users().length;
  return users === 0 ? 0 : Math.round((mock.store.tree.size - users) / users);
}

/** Where the state lives and, with --data, whether it was made now or resumed (and how much it holds). */
function stateFact(mock: RunningMock, existed: boolean, createdFolder: string | undefined): string {
  const data = mock.options.data;
  if (!data) return 'in memory, gone on exit (--data FILE keeps it)';
  const objects = mock.store.tree.size - mock.store.tree.users().length;
  const what = existed
    ? `resumed, ${objects.toLocaleString('en-US')} object(s)`
    : `new, ${objects.toLocaleString('en-US')} object(s) from the seed`;
  return `${data} (${what}), bytes in ${data}.blobs/${createdFolder ? ` (created the folder ${createdFolder})` : ''}`;
}

/**
 * The spec --generate and --max-memory give (checked later, with the other options); throws on text that is no
 * spec. Its reader loads when serve runs, not with every command of the CLI.
 */
async function generateSpecOf(args: ServeArgs): Promise<GenerateSpec | undefined> {
  if (args.generate === undefined) {
    if (args['max-memory'] !== undefined) throw new Error('--max-memory applies only with --generate');
    return undefined;
  }
  const { parseGenerateShorthand } = await import('../scenarios/generate/generate-shorthand.js');
  const spec = parseGenerateShorthand(args.generate);
  return args['max-memory'] === undefined ? spec : { ...spec, maxMemory: args['max-memory'] };
}

/** The ready line's words for a generated account: what each user got, as counted in the store. */
function describeGenerated(spec: GenerateSpec, objectsPerUser: number): string {
  const parts: string[] = [];
  if (spec.files !== undefined) parts.push(`${spec.files.toLocaleString('en-US')} files`);
  if (spec.filesPerFolder !== undefined) parts.push(`${spec.filesPerFolder.toLocaleString('en-US')} files a folder`);
  parts.push(`${(spec.folders ?? 0).toLocaleString('en-US')} folders`);
  if (spec.depth !== undefined) parts.push(`depth ${spec.depth}`);
  if (spec.size !== undefined)
    parts.push(`sizes ${typeof spec.size === 'object' ? JSON.stringify(spec.size) : spec.size}`);
  parts.push(`seed ${spec.seed ?? 1}`);
  return `generated for each user: ${parts.join(', ')} (${objectsPerUser.toLocaleString('en-US')} objects, content made on read)`;
}

export const serveCommand = (cli: CliContext): CommandModule<object, ServeArgs> => ({
  command: 'serve',
  describe: 'run the emulator (REST /v2 and WebDAV /dav over one store)',
  builder: (y) =>
    withOptions(withListenOptions(y), SERVE_OPTIONS)
      .example('$0 serve', 'demo tree, in memory, http://127.0.0.1:8080, user demo:demo')
      .example('$0 serve -p 0 --data ./state.json', 'a free port; state kept in ./state.json and ./state.json.blobs/')
      .example('$0 serve --empty --user alice:pw --user bob:pw2', 'two users with empty trees')
      .example(
        '$0 serve --generate files=100000,folders=2000,size=200KB~20MB,seed=7',
        'an account of 100,000 generated files (their bytes derived on read)',
      )
      .example(
        '$0 serve --scenario flaky-uploads --watch',
        'a built-in scenario; edits to a scenario file apply at once',
      )
      .example(
        'CSP_MOCK_PORT=9000 CSP_MOCK_ADMIN_TOKEN=s3cret $0 serve',
        'options from the environment (or csp-mock.config.json)',
      ) as never,
  handler: async (args) => {
    const users = args.user?.length ? parseUserSpec(args.user) : undefined;
    let adminToken: string | undefined;
    let generate: GenerateSpec | undefined;
    try {
      adminToken = adminTokenOf(args);
      generate = await generateSpecOf(args);
    } catch (err) {
      cannotStart(err);
    }
    const dataDir = args.data ? dirname(resolve(args.data)) : undefined;
    const createdFolder = dataDir !== undefined && !existsSync(dataDir) ? dataDir : undefined;
    const existed = args.data !== undefined && existsSync(resolve(args.data));
    const mock = await startListening({
      ...listenOptionsOf(args, cli),
      scenario: args.scenario,
      adminToken,
      data: args.data,
      compactAfterBytes: args['compact-after'],
      queueLimit: args['queue-limit'],
      users,
      publicUrl: args['public-url'],
      strict: args.strict,
      seed: args.empty ? 'empty' : 'demo',
      generate,
      onProgress: progressTo(cli, args),
      journalSize: args['journal-size'],
      journalBodies: args['journal-bodies'],
      contentCacheMiB: args['content-cache-mib'],
      clock: clockOptionsOf(args),
      tenants: { max: args['max-tenants'], idle: args['tenant-idle'] },
    });
    // The scenario's seed may add logins to --user (or to the default demo:demo).
    const who = Object.keys({ ...(users ?? DEFAULT_USERS), ...mock.scenario.seed?.users }).join(', ');
    const scenario = mock.scenario;
    announce(
      cli,
      'serve',
      mock,
      [
        ['REST', `${mock.url}/v2`],
        ['WebDAV', `${mock.url}/dav`],
        ['users', who],
        [
          'scenario',
          `${scenario.name}${scenario.source.startsWith('/') ? ` (${scenario.source})` : ''}${scenario.faults.length ? `, ${scenario.faults.length} fault rule(s)` : ''}`,
        ],
        ...(generate ? [['account', describeGenerated(generate, objectsPerUser(mock))] as [string, string]] : []),
        ['state', stateFact(mock, existed, createdFolder)],
        ...clockShown(mock.options.clock.state()),
        ['admin', `${mock.url}/__admin (${adminToken ? 'admin token required' : 'open: no admin token'})`],
      ],
      args,
    );
    if (!args.watch) return;
    const watcher = watchScenario(mock, logLineFor(cli, args['log-format']));
    const running = cli.running!;
    cli.running = {
      ...running,
      close: async () => {
        watcher?.close();
        await running.close();
      },
    };
  },
});
