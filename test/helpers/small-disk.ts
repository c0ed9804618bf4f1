import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real file system that fills up: a tmpfs of `sizeKiB` mounted on a fresh folder. */
export interface SmallDisk {
  path: string;
  /** Makes room: the same tmpfs, remounted larger (its files stay). */
  grow(sizeKiB: number): void;
  unmount(): Promise<void>;
}

/**
 * Mounts a small tmpfs (needs root and a sandbox that allows mount, as on the development and CI
 * machines). Throws a clear message when it cannot, rather than pretending.
 */
export async function mountSmallDisk(sizeKiB: number): Promise<SmallDisk> {
  const path = await mkdtemp(join(tmpdir(), 'csp-mock-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (err) {
    await rm(path, { recursive: true, force: true });
    throw new Error(`this test needs a small tmpfs (mount -t tmpfs, as root): ${(err as Error).message}`);
  }
  return {
    path,
    grow(size) {
      execFileSync('mount', ['-o', `remount,size=${size}k`, path], { stdio: 'pipe' });
    },
    async unmount() {
      try {
        execFileSync('umount', [path], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      }
      await rm(path, { recursive: true, force: true });
    },
  };
}
