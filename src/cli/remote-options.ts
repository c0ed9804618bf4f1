import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { connectMock, type RemoteMock } from '../remote/connect-mock.js';
import { localCaCertificate } from '../tls/ca-folder.js';

export const DEFAULT_MOCK_URL = 'http://127.0.0.1:8080';

export interface RemoteArgs {
  url: string;
  'admin-token'?: string;
  'admin-token-file'?: string;
}

/** --url, --admin-token and --admin-token-file, shared by the commands that control a running mock. */
export function withRemoteOptions<T>(y: Argv<T>): Argv<T & RemoteArgs> {
  return y
    .option('url', { type: 'string', default: DEFAULT_MOCK_URL, describe: 'the running mock (env CSP_MOCK_URL)' })
    .option('admin-token', { type: 'string', describe: 'its admin token (env CSP_MOCK_ADMIN_TOKEN)' })
    .option('admin-token-file', {
      type: 'string',
      describe: 'read the admin token from this file (keeps it out of ps)',
    }) as unknown as Argv<T & RemoteArgs>;
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

/** Runs `action` against the mock at --url; a connection problem is one line on stderr and exit 1. */
export async function withRemote(args: RemoteArgs, action: (mock: RemoteMock) => Promise<void>): Promise<void> {
  try {
    // An https mock's certificate most often comes from the local CA: trust it, besides Node's roots.
    const ca = /^https:/i.test(args.url) ? await localCaCertificate() : undefined;
    const mock = connectMock(args.url, { adminToken: adminTokenOf(args), ca });
    await action(mock);
    await mock.close();
  } catch (err) {
    if (err instanceof Error) {
      process.stderr.write(`csp-mock: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
