import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requireProgram, runProgram, type ProgramRun } from './peer-process.js';

export interface RcloneRemote {
  /** rclone with these arguments (and --ca-cert when a CA was given), one try each. */
  run(...args: string[]): Promise<ProgramRun>;
  /** The same without --ca-cert: with a CA given, rclone then trusts nothing. */
  runWithoutCaCert(...args: string[]): Promise<ProgramRun>;
  /** rclone with these arguments and its own retries (the defaults, or --retries/--low-level-retries given here). */
  runWithRetries(...args: string[]): Promise<ProgramRun>;
}

/**
 * rclone's "csp:" remote on a mock's /dav (webdav backend, user demo), set through the environment
 * beside an empty config file in `work`. With `caFile` the system trust store is left out, so the only
 * trust is what --ca-cert gives.
 */
export async function rcloneRemote(mockUrl: string, work: string, caFile?: string): Promise<RcloneRemote> {
  const rclone = requireProgram('rclone');
  const obscured = (await runProgram(rclone, ['obscure', 'demo'])).output.trim();
  const env: NodeJS.ProcessEnv = {
    RCLONE_CONFIG: join(work, 'rclone.conf'),
    RCLONE_CONFIG_CSP_TYPE: 'webdav',
    RCLONE_CONFIG_CSP_URL: `${mockUrl}/dav`,
    RCLONE_CONFIG_CSP_VENDOR: 'other',
    RCLONE_CONFIG_CSP_USER: 'demo',
    RCLONE_CONFIG_CSP_PASS: obscured,
    ...(caFile && { SSL_CERT_FILE: '/nonexistent', SSL_CERT_DIR: '/nonexistent' }),
  };
  await writeFile(env['RCLONE_CONFIG']!, '');
  const runWithoutCaCert = (...args: string[]) =>
    runProgram(rclone, [...args, '--retries', '1', '--low-level-retries', '1'], { env, cwd: work });
  return {
    run: (...args) => runWithoutCaCert(...(caFile ? ['--ca-cert', caFile] : []), ...args),
    runWithoutCaCert,
    runWithRetries: (...args) =>
      runProgram(rclone, [...(caFile ? ['--ca-cert', caFile] : []), ...args], { env, cwd: work }),
  };
}
