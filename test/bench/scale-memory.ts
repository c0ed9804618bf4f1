import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCount } from './scale-load.js';
import { dav, timed } from './scale-requests.js';
import { ScaleServer } from './scale-server.js';

/** Live heap bytes grouped by what V8 calls them (node type and constructor), from one heap snapshot. */
export interface HeapSummary {
  total: number;
  groups: Map<string, { count: number; bytes: number }>;
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string', 'number']);

/** Sums self sizes by node type and name (all strings as one group): where the bytes of a heap go. */
export function summariseHeap(json: string): HeapSummary {
  const snap = JSON.parse(json) as SnapshotJson;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [width, typeAt, nameAt, sizeAt] = [
    fields.length,
    fields.indexOf('type'),
    fields.indexOf('name'),
    fields.indexOf('self_size'),
  ];
  const groups = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = STRING_TYPES.has(type) ? '' : snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 50);
    const bytes = snap.nodes[i + sizeAt]!;
    const key = `${type} ${name}`.trim();
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += bytes;
    groups.set(key, group);
    total += bytes;
  }
  return { total, groups };
}

/** Asks the server (started with --heapsnapshot-signal=SIGUSR2) for a heap snapshot and summarises it. */
async function heapOf(server: ScaleServer, dir: string): Promise<HeapSummary> {
  const before = new Set(await readdir(dir));
  server.child.kill('SIGUSR2');
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const fresh = (await readdir(dir)).filter((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (fresh.length === 0) continue;
    const file = join(dir, fresh[0]!);
    // Written in one go by the child; it is whole once it parses.
    try {
      const summary = summariseHeap(await readFile(file, 'utf8'));
      await rm(file, { force: true });
      return summary;
    } catch {
      continue;
    }
  }
}

/** What a Node diagnostic report (on SIGWINCH) says of the process's memory, in MiB. */
export interface MemoryReport {
  rss: number;
  heapCommitted: number;
  heapUsed: number;
  external: number;
}

interface ReportJson {
  javascriptHeap: { totalCommittedMemory: number; usedMemory: number; externalMemory: number };
  resourceUsage: { rss: number };
}

/** Asks the server (started with --report-on-signal --report-signal=SIGWINCH) for a diagnostic report. */
async function reportOf(server: ScaleServer, dir: string): Promise<MemoryReport> {
  const before = new Set(await readdir(dir));
  server.child.kill('SIGWINCH');
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const fresh = (await readdir(dir)).filter((f) => f.startsWith('report.') && !before.has(f));
    if (fresh.length === 0) continue;
    const file = join(dir, fresh[0]!);
    try {
      const report = JSON.parse(await readFile(file, 'utf8')) as ReportJson;
      await rm(file, { force: true });
      const mib = (bytes: number): number => bytes / 1048576;
      return {
        rss: mib(report.resourceUsage.rss),
        heapCommitted: mib(report.javascriptHeap.totalCommittedMemory),
        heapUsed: mib(report.javascriptHeap.usedMemory),
        external: mib(report.javascriptHeap.externalMemory),
      };
    } catch {
      continue;
    }
  }
}

/** Node options of a server measured by this module (snapshots and reports into `dir`). */
export const memoryProbeArgs = (dir: string): string[] => [
  '--heapsnapshot-signal=SIGUSR2',
  `--diagnostic-dir=${dir}`,
  '--report-on-signal',
  '--report-signal=SIGWINCH',
  `--report-directory=${dir}`,
];

export interface HeapPerObject {
  objects: number;
  /** Before the snapshot (as the server ran) and right after it (after its full GC). */
  running: MemoryReport;
  collected: MemoryReport;
  /** Live heap bytes per object (snapshot at `objects` minus snapshot before them, over `objects`). */
  perObject: number;
  /** The largest groups, bytes per object each. */
  top: Array<{ group: string; perObject: number; count: number }>;
}

/**
 * Live heap per object: a server with a snapshot on SIGUSR2, a heap snapshot before and after
 * `objects` empty files (by WebDAV PUT, in folders of `folder`); the difference over the count.
 */
export async function heapPerObject(
  objects: number,
  clients: number,
  folder: number,
  dir: string,
  args: string[] = [],
): Promise<HeapPerObject> {
  const server = await ScaleServer.start(args, 120_000, memoryProbeArgs(dir));
  try {
    await timed(server.url, dav.mkcol('warm'));
    await runCount(server.url, (i) => dav.put(`warm/w${i}`), 200, clients);
    const base = await heapOf(server, dir);
    let made = 0;
    for (let b = 0; made < objects; b++) {
      await timed(server.url, dav.mkcol(`m${b}`));
      const size = Math.min(folder - 1, objects - made - 1);
      await runCount(server.url, (i) => dav.put(`m${b}/f${i}`), size, clients);
      made += size + 1;
    }
    const running = await reportOf(server, dir);
    const after = await heapOf(server, dir);
    const collected = await reportOf(server, dir);
    const top = [...after.groups]
      .map(([group, g]) => ({
        group,
        perObject: (g.bytes - (base.groups.get(group)?.bytes ?? 0)) / made,
        count: g.count - (base.groups.get(group)?.count ?? 0),
      }))
      .sort((x, y) => y.perObject - x.perObject)
      .slice(0, 12);
    return { objects: made, running, collected, perObject: (after.total - base.total) / made, top };
  } finally {
    // A clean stop, so a --data state is left as one snapshot (what `heapOfStart` loads).
    await server.stop('SIGTERM');
  }
}

/** Live heap of a server started with `args` (a --data state to load) minus that of an empty one, over `objects`. */
export async function heapOfStart(args: string[], objects: number, dir: string): Promise<HeapPerObject> {
  const measure = async (extra: string[]): Promise<{ heap: HeapSummary; report: MemoryReport }> => {
    const server = await ScaleServer.start(extra, 600_000, memoryProbeArgs(dir));
    try {
      const heap = await heapOf(server, dir);
      return { heap, report: await reportOf(server, dir) };
    } finally {
      await server.stop('SIGKILL');
    }
  };
  const base = await measure([]);
  const loaded = await measure(args);
  const top = [...loaded.heap.groups]
    .map(([group, g]) => ({
      group,
      perObject: (g.bytes - (base.heap.groups.get(group)?.bytes ?? 0)) / objects,
      count: g.count - (base.heap.groups.get(group)?.count ?? 0),
    }))
    .sort((x, y) => y.perObject - x.perObject)
    .slice(0, 12);
  return {
    objects,
    running: loaded.report,
    collected: loaded.report,
    perObject: (loaded.heap.total - base.heap.total) / objects,
    top,
  };
}
