import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMock } from '../server.js';
import { baselineApp } from './baseline-app.js';
import { prepareMock, type PreparedMock } from './setup.js';

/** What the server process tells the load process once both servers listen. */
export interface ServersReady {
  baselineUrl: string;
  mockUrl: string;
  prepared: Omit<PreparedMock, 'entryBody' | 'listingBody' | 'downloadBody'>;
}

/**
 * The server side of the benchmark, in its own process so the load generator does not share its
 * event loop: the mock and the express baseline side by side; stops on "stop" or when the parent goes.
 */
async function main(): Promise<void> {
  const mock = await startMock({ seed: 'empty' });
  const prepared = await prepareMock(mock);
  const baseline = createServer(baselineApp(prepared.entryBody, prepared.listingBody, prepared.downloadBody));
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const stop = async (): Promise<void> => {
    await new Promise<void>((resolve) => {
      baseline.close(() => resolve());
      baseline.closeAllConnections();
    });
    await mock.close();
    process.exit(0);
  };
  process.on('message', (msg) => {
    if (msg === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  const ready: ServersReady = {
    baselineUrl: `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`,
    mockUrl: mock.url,
    prepared: { target: prepared.target, uploadWarmTarget: prepared.uploadWarmTarget },
  };
  process.send?.(ready);
}

main().catch((err: unknown) => {
  console.error(`bench servers: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
