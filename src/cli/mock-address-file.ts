import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where a listening command (serve, record, replay) leaves its URL for the control commands run from the same
 * folder: one small JSON file per folder, in the user's runtime folder ($XDG_RUNTIME_DIR/csp-mock, else
 * <tmpdir>/csp-mock-running-<user>), named by a hash of the folder. Nothing is written into the project (Vite and Next
 * leave nothing there either); the file goes when the command stops.
 */
export interface MockAddress {
  url: string;
  pid: number;
  command: string;
  cwd: string;
}

function runtimeFolder(): string {
  const xdg = process.env['XDG_RUNTIME_DIR'];
  if (xdg) return join(xdg, 'csp-mock');
  const uid = process.getuid?.();
  return join(tmpdir(), `csp-mock-running-${uid ?? userInfo().username}`);
}

/** The address file of the mock started in `cwd`. */
export function addressFileFor(cwd: string): string {
  const key = createHash('sha256').update(resolve(cwd)).digest('hex').slice(0, 16);
  return join(runtimeFolder(), `${key}.json`);
}

/** Our folder, 0700; refused when a shared temporary folder holds one that is not ours (or not a folder). */
function ownFolder(): string {
  const folder = runtimeFolder();
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid))
    throw new Error(`${folder} is not a folder of ours`);
  return folder;
}

/**
 * Writes the address (whole: a temporary file renamed over it) and returns what removes it, once, and only
 * while it still names this process (another mock started later in the same folder owns it then). A folder
 * that cannot be written costs only the lookup: the returned reason says why.
 */
export function leaveAddress(address: MockAddress): { remove: () => void; problem?: string } {
  const file = addressFileFor(address.cwd);
  try {
    ownFolder();
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(address)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (err) {
    return { remove: () => undefined, problem: `cannot leave the address in ${file}: ${(err as Error).message}` };
  }
  let removed = false;
  return {
    remove: () => {
      if (removed) return;
      removed = true;
      if (readAddress(address.cwd)?.address.pid === address.pid) rmSync(file, { force: true });
    },
  };
}

/** The address left by a mock started in `cwd`, or undefined (none, or not an address file). */
export function readAddress(cwd: string): { file: string; address: MockAddress } | undefined {
  const file = addressFileFor(cwd);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { url, pid, command } = parsed as Record<string, unknown>;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || !Number.isInteger(pid)) return undefined;
  return {
    file,
    address: { url, pid: pid as number, command: typeof command === 'string' ? command : 'serve', cwd: resolve(cwd) },
  };
}

/** Removes a stale address file. */
export function forgetAddress(file: string): void {
  rmSync(file, { force: true });
}
