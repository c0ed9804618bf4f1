import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMock } from 'csp-mock';
import { baselineExpress, baselineNode } from './baseline-app.js';
import type { Target } from './scenarios.js';
import { prepareMock } from './setup.js';

/** What the server process tells the load process once every server listens. */
export interface ServersReady {
  mockUrl: string;
  expressUrl: string;
  nodeUrl: string;
  target: Target;
  bigUploadPath: string;
}

/** Messages the load process sends: start/stop sampling RSS, or stop everything. */
export type ServersCommand = 'rss-start' | 'rss-stop' | 'stop';

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

/**
 * The server side of the benchmark, in its own process so the load generator does not share its
 * event loop: the mock, bare express and bare node:http side by side (only one is loaded at a time);
 * it samples its own RSS on demand and stops on "stop" or when the parent goes.
 */
async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? '1');
  const mock = await startMock({ seed: 'empty', log: false });
  const prepared = await prepareMock(mock, rounds * 2);
  const uploadDir = mkdtempSync(join(tmpdir(), 'csp-mock-bench-'));
  const express = createServer(
    baselineExpress(
      { entity: prepared.target.entityPath, listing: prepared.target.listingPath },
      prepared.entity,
      prepared.listing,
    ),
  );
  const node = baselineNode(uploadDir, prepared.big);
  const [expressUrl, nodeUrl] = await Promise.all([listen(express), listen(node)]);
  let sampler: NodeJS.Timeout | undefined;
  let before = 0;
  let peak = 0;
  const stop = async (): Promise<void> => {
    for (const server of [express, node]) {
      server.closeAllConnections();
      server.close();
    }
    await mock.close();
    rmSync(uploadDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (msg: ServersCommand) => {
    if (msg === 'rss-start') {
      globalThis.gc?.();
      before = peak = process.memoryUsage.rss();
      sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
      process.send?.({ rss: 'started' });
    } else if (msg === 'rss-stop') {
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage.rss());
      process.send?.({ rss: 'stopped', before, peak });
    } else if (msg === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  const ready: ServersReady = {
    mockUrl: mock.url,
    expressUrl,
    nodeUrl,
    target: prepared.target,
    bigUploadPath: prepared.bigUploadPath,
  };
  process.send?.(ready);
}

main().catch((err: unknown) => {
  console.error(`bench servers: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
