import type { CommandModule } from 'yargs';
import { DEFAULT_USERS, parseUserSpec } from '../options.js';
import { startMock } from '../server.js';
import { stopOnSignals, withListenOptions } from './listening.js';

interface ServeArgs {
  port: number;
  host: string;
  data?: string;
  'compact-after'?: number;
  user?: string[];
  'public-url'?: string;
  strict: boolean;
  empty: boolean;
  scenario?: string;
  'admin-token'?: string;
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'run the emulator (REST /v2 and WebDAV /dav over one store)',
  builder: (y) =>
    withListenOptions(y)
      .option('data', { type: 'string', describe: 'JSON state file (file bytes go to <data>.blobs/); default: in memory' })
      .option('compact-after', { type: 'number', describe: 'with --data: compact the change log past this many bytes (default: max(4 MiB, state size))' })
      .option('user', { type: 'string', array: true, describe: 'NAME:PASSWORD, repeatable (default demo:demo)' })
      .option('public-url', { type: 'string', describe: 'base of the absolute links in XML (default: the request Host)' })
      .option('strict', { type: 'boolean', default: false, describe: 'refuse requests without X-Client-Specification: 2' })
      .option('empty', { type: 'boolean', default: false, describe: 'start with empty trees instead of the demo data' })
      .option('scenario', { type: 'string', describe: 'scenario NAME (see "csp-mock scenarios") or PATH to a scenario file (default: default)' })
      .option('admin-token', { type: 'string', describe: 'require this token on /__admin (Authorization: Bearer TOKEN)' }) as never,
  handler: async (args) => {
    const users = args.user?.length ? parseUserSpec(args.user) : undefined;
    const mock = await startMock({
      scenario: args.scenario,
      adminToken: args['admin-token'],
      port: args.port,
      host: args.host,
      data: args.data,
      compactAfterBytes: args['compact-after'],
      users,
      publicUrl: args['public-url'],
      strict: args.strict,
      seed: args.empty ? 'empty' : 'demo',
      log: true,
    }).catch((err: unknown) => {
      // A malformed scenario (or a taken port) is a message for a person, not a stack trace.
      console.error(`csp-mock: cannot start: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
    // The scenario's seed may add logins to --user (or to the default demo:demo).
    const who = Object.keys({ ...(users ?? DEFAULT_USERS), ...mock.scenario.seed?.users }).join(', ');
    console.log(`csp-mock listening on ${mock.url} (REST ${mock.url}/v2, WebDAV ${mock.url}/dav; users: ${who})`);
    console.log(`scenario ${mock.scenario.name}; admin API ${mock.url}/__admin`);
    stopOnSignals(mock);
  },
};
