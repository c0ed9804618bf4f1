import { unlinkSync } from 'node:fs';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { onProcessExit } from './exit-cleanup.js';
import { processAlive } from './storage-errors.js';

/** The lock beside a state file: one server per --data file. */
const lockFileOf = (file: string): string => `${file}.lock`;

export interface HeldLock {
  readonly path: string;
  /** A stale lock that was taken over, for the start-up notes. */
  readonly note: string | undefined;
  release(): Promise<void>;
}

async function holderOf(path: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(path, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Takes `<file>.lock`: a file holding our pid, created whole and exclusively (written aside, then
 * hard-linked, which fails if the lock exists). A lock whose process is gone is taken over; one held
 * by a live process is an Error naming the file and the pid. Released on release() and on exit.
 */
export async function acquireLock(file: string): Promise<HeldLock> {
  const path = lockFileOf(file);
  const mine = `${path}.${process.pid}.tmp`;
  await writeFile(mine, `${process.pid}\n`, { mode: 0o600 });
  let note: string | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await createExclusively(mine, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw err;
      }
      const holder = await holderOf(path);
      if (holder !== undefined && processAlive(holder)) {
        const who = holder === process.pid ? `this process (${holder})` : `process ${holder}`;
        throw new Error(
          `state file ${file} is in use by ${who} (lock file ${path}); stop that server or pick another --data file`,
        );
      }
      // Stale (its process is gone, or it is empty): move it aside under our name, then try again.
      const aside = `${path}.stale.${process.pid}`;
      await rename(path, aside).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await rm(aside, { force: true });
      note = `took over the stale lock ${path} of process ${holder ?? '(unknown)'}, which is no longer running`;
    }
  } finally {
    await rm(mine, { force: true });
  }
  const unregister = onProcessExit(() => releaseSync(path));
  let released = false;
  return {
    path,
    note,
    async release() {
      if (released) return;
      released = true;
      unregister();
      await rm(path, { force: true });
    },
  };
}

/** A hard link of the written file (whole at once); where links are not supported, O_EXCL and a write. */
async function createExclusively(written: string, path: string): Promise<void> {
  try {
    await link(written, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || !['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'].includes(code ?? '')) throw err;
    await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
  }
}

function releaseSync(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
