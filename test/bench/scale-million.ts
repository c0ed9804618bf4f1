import { execFileSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCount, type CountResult } from './scale-load.js';
import { dav, timed } from './scale-requests.js';
import { ScaleServer } from './scale-server.js';

const say = (line: string): void => console.log(line);
const MIB = 1024 * 1024;
const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** The parts of the built storage and domain layers this module writes a state file with. */
interface NodeShape {
  id: string;
  mimeType: string;
}
interface StorageLayer {
  writeSnapshot(file: string, state: unknown, seq: number): Promise<number>;
}
interface DomainRecords {
  newNode(owner: string, kind: 'container' | 'file', name: string, parentId: string | null, now: number): NodeShape;
}

/**
 * A state file of `objects` nodes for user demo (folders of `folder` empty files under the root),
 * written through the built storage layer as `serve --data` writes one: what the bench loads when the
 * CLI has no account generator.
 */
async function writeState(file: string, objects: number, folder: number): Promise<number> {
  const storage = (await import(new URL('../../storage/snapshot-file.js', import.meta.url).href)) as StorageLayer;
  const domain = (await import(new URL('../../domain/node-records.js', import.meta.url).href)) as DomainRecords;
  const now = Math.floor(Date.now() / 1000);
  const nodes = Object.create(null) as Record<string, NodeShape>;
  const root = domain.newNode('demo', 'container', '/', null, now);
  nodes[root.id] = root;
  let made = 1;
  for (let f = 0; made < objects; f++) {
    const container = domain.newNode('demo', 'container', `b${f}`, root.id, now);
    nodes[container.id] = container;
    made++;
    for (let i = 0; i < folder - 1 && made < objects; i++, made++) {
      const node = domain.newNode('demo', 'file', `f${i}`, container.id, now);
      node.mimeType = 'application/octet-stream';
      nodes[node.id] = node;
    }
  }
  const users = Object.assign(Object.create(null) as Record<string, unknown>, { demo: { rootId: root.id } });
  return storage.writeSnapshot(file, { schema: 1, users, nodes }, 0);
}

/** Whether the built CLI offers `serve --generate` (a generated account). */
function canGenerate(): boolean {
  return execFileSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' }).includes('--generate');
}

/** The create rate of `count` empty files in a new folder, after a warm-up of 200 in another one. */
async function createRate(url: string, clients: number, count: number, tag: string): Promise<CountResult> {
  await timed(url, dav.mkcol(`${tag}-warm`));
  await runCount(url, (i) => dav.put(`${tag}-warm/w${i}`), 200, clients);
  await timed(url, dav.mkcol(tag));
  return runCount(url, (i) => dav.put(`${tag}/f${i}`), count, clients);
}

export interface MillionConfig {
  objects: number;
  clients: number;
  folder: number;
}

/**
 * The million-object row: a state of `objects` objects (generated with `serve --generate` where the
 * CLI has it, else a --data state file written through the storage layer); the create rate of 16
 * clients there against the rate in a fresh server at ~1,000 objects, in memory and with --data; the
 * restart of that state with --data to "listening"; RSS.
 */
export async function runMillion(cfg: MillionConfig, dir: string): Promise<void> {
  const generate = canGenerate();
  const spec = `files=${cfg.objects},folders=${Math.max(1, Math.round(cfg.objects / cfg.folder))},depth=1,size=0,seed=1`;
  const rate = (r: CountResult): string => `${r.perSecond.toFixed(0)}/s`;
  for (const mode of ['memory', '--data'] as const) {
    const file = join(dir, `million-${mode === 'memory' ? 'memory' : 'data'}.json`);
    let args: string[];
    if (generate) {
      args = ['--generate', spec, ...(mode === '--data' ? ['--data', file] : [])];
    } else if (mode === '--data') {
      const started = Date.now();
      const bytes = await writeState(file, cfg.objects, cfg.folder);
      say(
        `${cfg.objects} objects, --data: state file written through the storage layer in ${((Date.now() - started) / 1000).toFixed(1)} s (${(bytes / MIB).toFixed(0)} MiB)`,
      );
      args = ['--data', file];
    } else {
      say(`${cfg.objects} objects, memory: not measured (this CLI has no serve --generate to make them)`);
      continue;
    }
    const fresh = await ScaleServer.start(mode === 'memory' ? [] : ['--data', join(dir, 'million-fresh.json')]);
    const small = await createRate(fresh.url, cfg.clients, cfg.folder, 'small').finally(() => fresh.stop());
    const big = await ScaleServer.start(args, 900_000);
    try {
      const made = generate ? ` (made by serve --generate in ${big.startSeconds.toFixed(2)} s)` : '';
      say(`${cfg.objects} objects, ${mode}: RSS after start ${big.rssMiB().toFixed(0)} MiB${made}`);
      const large = await createRate(big.url, cfg.clients, cfg.folder, 'large');
      say(
        `create rate, ${mode}: ${rate(small)} at ~${cfg.folder} objects, ${rate(large)} at ~${cfg.objects} objects` +
          ` = ${(small.perSecond / large.perSecond).toFixed(2)}x slower (target <= 1.5x); RSS ${big.rssMiB().toFixed(0)} MiB`,
      );
    } finally {
      await big.stop(mode === '--data' ? 'SIGTERM' : 'SIGKILL');
    }
    if (mode === '--data') {
      const size = (await stat(file)).size / MIB;
      const again = await ScaleServer.start(['--data', file], 900_000);
      say(
        `restart of ${cfg.objects} objects, --data (${size.toFixed(0)} MiB state file): start to "listening" ${again.startSeconds.toFixed(2)} s (target <= 10 s); RSS after start ${again.rssMiB().toFixed(0)} MiB`,
      );
      await again.stop('SIGKILL');
    }
  }
}
