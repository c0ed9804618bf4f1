import { readFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { DEFAULT_MOCK_URL } from '../option-table.js';
import type { RemoteMock } from '../index.js';
import { CliError, printLine, type CliContext } from './context.js';
import { forgetAddress, readAddress } from './mock-address-file.js';
import { withOptions, type OptionValues } from './option-flags.js';

export type RemoteArgs = Pick<OptionValues, 'url' | 'admin-token' | 'admin-token-file'>;

/** --url, --admin-token and --admin-token-file, shared by the commands that control a running mock. */
export function withRemoteOptions<T>(y: Argv<T>): Argv<T & RemoteArgs> {
  return withOptions(y, ['url', 'admin-token', 'admin-token-file'], {
    'admin-token': { describe: 'its admin token (env CSP_MOCK_ADMIN_TOKEN)' },
    'admin-token-file': { describe: 'read the admin token from this file (keeps it out of ps)' },
  });
}

/** The token from --admin-token, else the first line of --admin-token-file. */
export function adminTokenOf(args: { 'admin-token'?: string; 'admin-token-file'?: string }): string | undefined {
  if (args['admin-token']) return args['admin-token'];
  const file = args['admin-token-file'];
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read --admin-token-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const token = text.split(/\r?\n/)[0]!.trim();
  if (!token) throw new Error(`--admin-token-file ${file} is empty`);
  return token;
}

/** The client and the local CA load when a command talks to a mock, not with every command of the CLI. */
async function remoteModules(): Promise<
  typeof import('../remote/connect-mock.js') & Pick<typeof import('../tls/ca-folder.js'), 'localCaCertificate'>
> {
  const [remote, { localCaCertificate }] = await Promise.all([
    import('../remote/connect-mock.js'),
    import('../tls/ca-folder.js'),
  ]);
  return { ...remote, localCaCertificate };
}

/** --url typed, or CSP_MOCK_URL set: the user named the mock (a config file's url only guesses it). */
function urlNamed(argv: readonly string[]): boolean {
  return process.env['CSP_MOCK_URL'] !== undefined || argv.some((a) => a === '--url' || a.startsWith('--url='));
}

/** True when a csp-mock answers its admin API at `url` (a 401 asking for a token is one too). */
async function answersAsMock(url: string): Promise<boolean> {
  const { connectMock, MockConnectionError, localCaCertificate } = await remoteModules();
  const probe = connectMock(url, { ca: /^https:/i.test(url) ? await localCaCertificate() : undefined });
  try {
    await probe.scenario();
    return true;
  } catch (err) {
    return !(err instanceof MockConnectionError && /^no csp-mock answers| is not a csp-mock /.test(err.message));
  } finally {
    await probe.close();
  }
}

/**
 * The mock a control command means: --url or CSP_MOCK_URL when given; else the one started from this folder
 * (serve, record and replay leave their URL, see mock-address-file.ts); else the config file's url; else
 * http://127.0.0.1:8080. A given URL other than the one started here is said on stderr, and so is an address
 * left by a mock that no longer answers (killed without a chance to clean up), which is then forgotten.
 */
export async function mockUrlOf(
  args: Pick<RemoteArgs, 'url'>,
  argv: readonly string[],
  note: (line: string) => void,
): Promise<string> {
  const named = urlNamed(argv) && args.url !== undefined;
  let found = readAddress(process.cwd());
  // Looked at only when it would change the answer or the words: the given URL is its own.
  if (found && !(named && found.address.url === args.url) && !(await answersAsMock(found.address.url))) {
    forgetAddress(found.file);
    note(
      `note: ignored ${found.address.url}, left by ${found.address.command} (pid ${found.address.pid}) in ${found.file}: no csp-mock answers there any more`,
    );
    found = undefined;
  }
  if (!found) return args.url ?? DEFAULT_MOCK_URL;
  const { url, command, pid } = found.address;
  if (named) {
    if (url !== args.url)
      note(
        `note: the mock started in this folder (${command}, pid ${pid}) listens on ${url}; using ${args.url} as given`,
      );
    return args.url!;
  }
  if (args.url !== undefined && args.url !== url)
    note(
      `note: using ${url}, where the mock started in this folder listens (${command}, pid ${pid}), not the config file's url ${args.url}`,
    );
  return url;
}

/** Runs `action` against the mock at --url; a connection problem is one line on stderr and exit 1. */
export async function withRemote(
  cli: CliContext,
  args: RemoteArgs,
  action: (mock: RemoteMock) => Promise<void>,
): Promise<void> {
  const { connectMock, MockRefusedError, localCaCertificate } = await remoteModules();
  let mock: RemoteMock | undefined;
  try {
    // An https mock's certificate most often comes from the local CA: trust it, besides Node's roots.
    const url = await mockUrlOf(args, cli.argv, (line) => cli.stderr(`csp-mock: ${line}\n`));
    const ca = /^https:/i.test(url) ? await localCaCertificate() : undefined;
    mock = connectMock(url, { adminToken: adminTokenOf(args), ca });
    await action(mock);
  } catch (err) {
    throw err instanceof MockRefusedError ? new CliError(err.reason) : err;
  } finally {
    await mock?.close();
  }
}

/** The arguments every command that controls a running mock takes. */
export type ControlArgs = RemoteArgs & { json: boolean };

/**
 * A command that controls a running mock: --url and the token options, --json (what it prints, `json`), the
 * command's own options and examples (`options`), then `run` against the mock.
 */
export function controlCommand<A = object>(
  cli: CliContext,
  spec: {
    command: string;
    describe: string;
    json: string;
    options?: (y: Argv<ControlArgs>) => Argv<ControlArgs & A>;
    run(mock: RemoteMock, args: ArgumentsCamelCase<ControlArgs & A>): Promise<void>;
  },
): CommandModule<object, ControlArgs & A> {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: (y) => {
      const remote = withRemoteOptions(y).option('json', { type: 'boolean', default: false, describe: spec.json });
      return (spec.options ? spec.options(remote) : remote) as never;
    },
    handler: (args) => withRemote(cli, args, (mock) => spec.run(mock, args)),
  };
}

/** `value` as indented JSON under --json, else as `text` says. */
export function printAs<T>(cli: CliContext, json: boolean, value: T, text: (value: T) => string): void {
  printLine(cli, json ? JSON.stringify(value, null, 2) : text(value));
}
