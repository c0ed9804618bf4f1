import { startMock } from 'csp-mock';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const since = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

/** Child of startup.ts: times reset() (demo seed) and startMock()+close() after a first of each. */
async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? '10');
  const first = await startMock();
  await first.close();
  const starts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const mock = await startMock();
    await mock.close();
    starts.push(since(t0));
  }
  const mock = await startMock();
  await mock.reset();
  const resets: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await mock.reset();
    resets.push(since(t0));
  }
  await mock.close();
  process.send?.({ resetMs: median(resets), startCloseMs: median(starts) });
}

main().catch((err: unknown) => {
  console.error(`bench lifecycle: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
