import { mkdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The files of the local CA's folder (local-ca.ts describes them). */
export const CA_KEY_FILE = 'ca-key.pem';
export const CA_CERT_FILE = 'ca.pem';

/**
 * 'constrained': the default CA, which may sign only for local names (a critical name-constraints extension).
 * 'compat': a second CA without that extension, for TLS stacks that refuse it (Mono); its own files.
 */
export type CaKind = 'constrained' | 'compat';
export const CA_FILES: Record<CaKind, { cert: string; key: string }> = {
  constrained: { cert: CA_CERT_FILE, key: CA_KEY_FILE },
  compat: { cert: 'ca-compat.pem', key: 'ca-compat-key.pem' },
};

/** The variable that moves the local CA (tests point it at a temporary folder). */
export const CA_DIR_VARIABLE = 'CSP_MOCK_CA_DIR';

/**
 * Where the local CA lives: CSP_MOCK_CA_DIR, else the user's configuration folder: $XDG_CONFIG_HOME/csp-mock
 * (~/.config/csp-mock) on Linux and the BSDs, ~/Library/Application Support/csp-mock on macOS,
 * %APPDATA%\csp-mock on Windows.
 */
export function defaultCaFolder(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const given = env[CA_DIR_VARIABLE];
  if (given) return resolve(given);
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'csp-mock');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'csp-mock');
  const xdg = env['XDG_CONFIG_HOME'];
  // XDG: a relative XDG_CONFIG_HOME is invalid and is ignored.
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'csp-mock');
}

/** POSIX permissions apply; Windows keeps a user's AppData private through its ACLs instead. */
const hasModes = process.platform !== 'win32';

/**
 * Creates the folder (0700) when missing, and refuses one that others may read or that another user owns:
 * the CA key inside it can vouch for any local name.
 */
export async function prepareCaFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (!info.isDirectory()) throw new Error(`the local CA folder ${dir} is not a folder`);
  if (!hasModes) return;
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    throw new Error(`the local CA folder ${dir} belongs to another user (uid ${info.uid}): set ${CA_DIR_VARIABLE}`);
  if ((info.mode & 0o077) !== 0)
    throw new Error(
      `the local CA folder ${dir} is open to other users (mode ${modeText(info.mode)}): run "chmod 700 ${dir}"`,
    );
}

/** Refuses a private key file others may read (as ssh does). */
export async function checkPrivateFile(file: string): Promise<void> {
  if (!hasModes) return;
  const info = await stat(file);
  if ((info.mode & 0o077) !== 0)
    throw new Error(`${file} is readable by other users (mode ${modeText(info.mode)}): run "chmod 600 ${file}"`);
}

const modeText = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/** The local CA's certificate (PEM) when one was made, for clients of an https mock; never makes one. */
export async function localCaCertificate(
  dir = defaultCaFolder(),
  kind: CaKind = 'constrained',
): Promise<string | undefined> {
  return readFile(join(dir, CA_FILES[kind].cert), 'utf8').catch(() => undefined);
}
