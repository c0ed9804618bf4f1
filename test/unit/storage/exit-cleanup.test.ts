import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BLOB_STORE_URL = new URL('../../../dist/storage/blob-store.js', import.meta.url).href; // built by npm test

/** A process that makes a private blob folder late, then sends itself SIGTERM. */
function runWithLateFolder(ownHandler: boolean): { status: number | null; signal: string | null; out: string[] } {
  const script = `
    import('${BLOB_STORE_URL}').then(async ({ BlobStore }) => {
      const b = await BlobStore.open(undefined, { folder: 'when-needed' });
      ${ownHandler ? "process.once('SIGTERM', async () => { await b.close(); console.log('closed'); process.exit(0); });" : ''}
      await b.put(Buffer.alloc(128 * 1024)); // makes the folder now, after the handler above
      console.log(b.dir);
      process.kill(process.pid, 'SIGTERM');
      setTimeout(() => undefined, 5000);
    });`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, signal: run.signal, out: run.stdout.trim().split('\n') };
}

describe('clean-up at exit of what the store made (private blob folder)', () => {
  it("leaves a SIGTERM to the process's own once() handler even when the folder was made after it (its clean close, exit 0)", () => {
    const run = runWithLateFolder(true);
    expect(run).toMatchObject({ status: 0, signal: null });
    expect(run.out[1]).toBe('closed');
    expect(existsSync(run.out[0]!)).toBe(false);
  });

  it('removes the folder and ends the process by the signal when nobody else handles it', () => {
    const run = runWithLateFolder(false);
    expect(run).toMatchObject({ status: null, signal: 'SIGTERM' });
    expect(run.out[0]).toMatch(/csp-mock-blobs-\d+-/);
    expect(existsSync(run.out[0]!)).toBe(false);
  });
});
