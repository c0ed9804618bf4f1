import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BLOB_STORE_URL = new URL('../../dist/storage/blob-store.js', import.meta.url).href; // built by npm test

/**
 * Runs `steps` (code using `b`, an open BlobStore) in a child process that ends without close(), and
 * returns the blob folder it used and what it wrote to stderr.
 */
export function folderOfExitedOwner(openArgs: string, steps: string): { dir: string; stderr: string } {
  const script =
    `import('${BLOB_STORE_URL}').then(async ({ BlobStore }) => { const b = await BlobStore.open(${openArgs}); ` +
    `${steps}; console.log(b.dir); })`;
  const exited = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return { dir: exited.stdout.trim(), stderr: exited.stderr };
}

/** A blob folder named after a process that is gone, as a SIGKILLed owner leaves it. */
export async function folderOfDeadOwner(): Promise<string> {
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  return mkdtemp(join(tmpdir(), `csp-mock-blobs-${dead}-`));
}
