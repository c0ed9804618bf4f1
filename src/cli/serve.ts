import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import type { ClockState } from '../clock/mock-clock.js';
import type { GenerateSpec } from '../scenarios/generate/generate-spec.js';
import { DEFAULT_USERS, parseUserSpec } from '../option-defaults.js';
import type { RunningMock } from '../server.js';
import {
  cannotStart,
  listenOptionsOf,
  logOptionsOf,
  announce,
  withListenOptions,
  type ListenArgs,
} from './listening.js';
import { describeGenerated, generateSpecOf, withGenerateOptions, type GenerateArgs } from './generate-option.js';
import { adminTokenOf } from './remote-options.js';
import { watchScenario } from './watch-scenario.js';
import { progressToStderr } from './progress-line.js';
import { logLineFor } from './output-lines.js';
import { clockOptionsOf, describeClock, withClockOptions } from './clock.js';

interface ServeArgs extends ListenArgs, GenerateArgs {
  'clock-offset'?: string;
  'clock-frozen'?: string;
  data?: string;
  'compact-after'?: number;
  'queue-limit'?: number;
  user?: string[];
  'public-url'?: string;
  strict: boolean;
  empty: boolean;
  scenario?: string;
  'admin-token'?: string;
  'admin-token-file'?: string;
  'journal-size': number;
  'journal-bodies': number;
  'content-cache-mib': number;
  'max-tenants': number;
  'tenant-idle': string;
  watch: boolean;
}

/** A clock line on the ready screen only when the clock is not the host's. */
function clockShown(state: ClockState): Array<[string, string]> {
  return state.frozen || state.offsetMs !== 0 ? [['clock', describeClock(state)]] : [];
}

/** Objects in an account, its root left out (the users' trees are alike when generated). */
function objectsPerUser(mock: RunningMock): number {
  const users = mock.store.users().length;
  return users === 0 ? 0 : Math.round((mock.store.tree.size - users) / users);
}

/** Where the state lives and, with --data, whether it was made now or resumed (and how much it holds). */
function stateFact(mock: RunningMock, existed: boolean, createdFolder: string | undefined): string {
  const data = mock.options.data;
  if (!data) return 'in memory, gone on exit (--data FILE keeps it)';
  const objects = mock.store.tree.size - mock.store.users().length;
  const what = existed
    ? `resumed, ${objects.toLocaleString('en-US')} object(s)`
    : `new, ${objects.toLocaleString('en-US')} object(s) from the seed`;
  return `${data} (${what}), bytes in ${data}.blobs/${createdFolder ? ` (created the folder ${createdFolder})` : ''}`;
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'run the emulator (REST /v2 and WebDAV /dav over one store)',
  builder: (y) =>
    withClockOptions(withGenerateOptions(withListenOptions(y)))
      .option('data', {
        type: 'string',
        describe:
          'JSON state file, relative to the current folder (file bytes go to <data>.blobs/); default: in memory',
      })
      .option('compact-after', {
        type: 'number',
        describe: 'with --data: compact the change log past this many bytes (default: max(4 MiB, state size))',
      })
      .option('queue-limit', {
        type: 'number',
        describe: 'values a CDMI notification queue keeps unread before dropping its oldest (default 10000)',
      })
      .option('user', { type: 'string', array: true, describe: 'NAME:PASSWORD, repeatable (default demo:demo)' })
      .option('public-url', {
        type: 'string',
        describe: 'base of the absolute links in XML (default: the request Host)',
      })
      .option('strict', {
        type: 'boolean',
        default: false,
        describe: 'refuse requests without X-Client-Specification: 2',
      })
      .option('empty', {
        type: 'boolean',
        default: false,
        describe: 'start with empty trees instead of the demo data',
      })
      .option('scenario', {
        type: 'string',
        describe:
          'scenario NAME (see "csp-mock scenarios"; a file name or its "name") or PATH to a scenario file (default: default)',
      })
      .option('watch', {
        type: 'boolean',
        default: false,
        describe: 'reload the scenario file when it changes: faults and latency at once, the state untouched',
      })
      .option('admin-token', {
        type: 'string',
        describe: 'require this token on /__admin (Authorization: Bearer TOKEN); env CSP_MOCK_ADMIN_TOKEN',
      })
      .option('admin-token-file', {
        type: 'string',
        describe: 'read the admin token from the first line of this file (not visible in ps)',
      })
      .option('journal-size', {
        type: 'number',
        default: 1000,
        describe: 'requests the journal (/__admin/requests) keeps',
      })
      .option('journal-bodies', {
        type: 'number',
        default: 0,
        describe: 'keep up to this many bytes of each request and response body in the journal (secrets removed)',
      })
      .option('content-cache-mib', {
        type: 'number',
        default: 64,
        describe: 'MiB of file content kept in memory to answer reads; 0: none',
      })
      .option('max-tenants', {
        type: 'number',
        default: 64,
        describe: 'tenants (isolated mocks under /t/<name>, made by POST /__admin/tenants) kept at once; 0: none',
      })
      .option('tenant-idle', {
        type: 'string',
        default: '30m',
        describe: 'close a tenant nothing has reached for this long (e.g. 30m, 2h; 0: never)',
      })
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
    // Loaded when the command runs: the other commands (and --help) never need the server.
    const { startMock } = await import('../server.js');
    const mock = await startMock({
      scenario: args.scenario,
      adminToken,
      ...listenOptionsOf(args),
      data: args.data,
      compactAfterBytes: args['compact-after'],
      queueLimit: args['queue-limit'],
      users,
      publicUrl: args['public-url'],
      strict: args.strict,
      seed: args.empty ? 'empty' : 'demo',
      generate,
      onProgress: progressToStderr(args),
      journalSize: args['journal-size'],
      journalBodies: args['journal-bodies'],
      contentCacheMiB: args['content-cache-mib'],
      clock: clockOptionsOf(args),
      tenants: { max: args['max-tenants'], idle: args['tenant-idle'] },
      ...logOptionsOf(args),
    }).catch((err: unknown) => cannotStart(err, args.port));
    // The scenario's seed may add logins to --user (or to the default demo:demo).
    const who = Object.keys({ ...(users ?? DEFAULT_USERS), ...mock.scenario.seed?.users }).join(', ');
    const scenario = mock.scenario;
    announce(
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
    if (args.watch) watchScenario(mock, logLineFor(args['log-format']));
  },
};
