import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onProcessExit } from './exit-cleanup.js';
import { processAlive } from './storage-errors.js';

/** Memory mode's private folders: csp-mock-blobs-<owner pid>-<random>, so a later start can sweep a killed owner's. */
const PREFIX = 'csp-mock-blobs-';
const NAME = /^csp-mock-blobs-(\d+)-/;

/**
 * Memory mode's private blob folder in the temp dir, made when a blob first needs a file (ready()):
 * small blobs are held in memory, so a mock that stores none larger makes, sweeps and removes no folder.
 * Made with mode 0700 and failing if anything is in its place (like mkdtemp); removed however the
 * process ends, and by the next making of one if the owner was killed.
 */
export class PrivateFolder {
  readonly path: string;
  #making: Promise<void> | undefined;
  #unregisterCleanup: () => void = () => undefined;

  constructor(parent = tmpdir()) {
    this.path = join(parent, `${PREFIX}${process.pid}-${randomBytes(6).toString('base64url')}`);
  }

  /** True once the folder is made or being made. */
  get made(): boolean {
    return this.#making !== undefined;
  }

  /** Makes the folder once (sweeping dead owners' folders beside it); a failed making is tried again next time. */
  ready(): Promise<void> {
    this.#making ??= this.#make().catch((err: unknown) => {
      this.#making = undefined;
      throw err;
    });
    return this.#making;
  }

  /** Removes the folder and whatever is in it, if it was made. */
  async remove(): Promise<void> {
    const making = this.#making;
    if (!making) return;
    await making.catch(() => undefined);
    // Mostly empty, as small blobs are held: one rmdir, the recursive walk only when it is not.
    await rmdir(this.path).catch(() => rm(this.path, { recursive: true, force: true }));
    this.#unregisterCleanup();
  }

  async #make(): Promise<void> {
    const path = this.path;
    // Side by side: the sweep passes over this process's own folders.
    await Promise.all([sweepAbandonedFolders(dirname(path)), mkdir(path, { mode: 0o700 })]);
    this.#unregisterCleanup = onProcessExit(() => rmSync(path, { recursive: true, force: true }));
  }
}

/** Removes the memory-mode folders whose owner process is gone (killed before it could clean up). */
async function sweepAbandonedFolders(parent: string): Promise<number> {
  let swept = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const owner = NAME.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || processAlive(Number(owner))) continue;
    await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    swept++;
  }
  return swept;
}
