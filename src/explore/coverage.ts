import type { JournalEntry } from '../http/journal.js';
import type { DeviceChange } from '../scenarios/types.js';
import type { RunResult } from './run-schedule.js';
import { changeKindOf, faultLabel } from './schedule.js';
import type { Tree } from '../converge/trees.js';

/** One failure shape the client met, how often, and what it did next (counts by reaction). */
export interface CoverageRow {
  shape: string;
  met: number;
  then: Record<string, number>;
}

/** The failure shapes met over runs, by shape. */
export class CoverageMap {
  #rows = new Map<string, CoverageRow>();

  note(shape: string, reaction: string): void {
    const row = this.#rows.get(shape) ?? { shape, met: 0, then: {} };
    row.met++;
    row.then[reaction] = (row.then[reaction] ?? 0) + 1;
    this.#rows.set(shape, row);
  }

  get rows(): CoverageRow[] {
    return [...this.#rows.values()].sort((a, b) => b.met - a.met || (a.shape < b.shape ? -1 : 1));
  }

  /** Adds what one run met. */
  add(run: RunResult, user: string): void {
    const lostPaths = new Set(run.findings.flatMap((f) => f.paths));
    for (const pass of run.passes) {
      if (pass.step <= 0) continue;
      const step = run.steps[pass.step - 1];
      if (!step || !('pass' in step)) continue;
      const entries = run.journal.filter((e) => e.seq > pass.from && e.seq <= pass.to);
      const client = entries.filter((e) => e.user === user && !e.device);
      for (const rule of step.pass.faults ?? []) {
        const hit = client.find((e) => e.fault === rule.name);
        if (!hit) continue;
        const path = treePath(hit.path);
        let reaction = reactionTo(hit, client, pass.result.ok);
        if (path && [...lostPaths].some((p) => p === path)) reaction += ', then diverged';
        this.note(`${faultLabel(rule)} on ${operationOf(hit, pass.remote)}`, reaction);
      }
      for (const change of step.pass.changes ?? []) {
        const applied = entries.find((e) => e.device === 'second' && e.committed && e.path === pathOfChange(change));
        if (!applied) continue;
        const method = change.trigger && 'match' in change.trigger ? [change.trigger.match.method].flat()[0]! : '';
        this.note(
          `${changeKindOf(change)} by another device under ${transferOf(method)}`,
          pass.result.ok ? 'went on' : 'gave up (pass failed)',
        );
      }
      for (const e of client)
        if (e.status === 412 || e.status === 423 || (e.status === 507 && !e.fault))
          this.note(`answered ${e.status}`, pass.result.ok ? 'went on' : 'gave up (pass failed)');
    }
    for (const step of run.steps) {
      if ('clock' in step) this.note(step.clock.startsWith('-') ? 'clock moved back' : 'clock moved on', 'went on');
      const edit = 'local' in step ? step.local : undefined;
      if (edit && 'create' in edit) {
        const path = edit.create.toLowerCase();
        if (
          run.passes[0] &&
          [...run.passes[0].remote.keys()].some((p) => p.toLowerCase() === path && p !== edit.create)
        )
          this.note('the same name in two cases', 'went on');
      }
    }
  }
}

/** "/dav/Documents/a%20b.txt" -> "/Documents/a b.txt"; undefined for a path outside /dav. */
function treePath(path: string): string | undefined {
  if (!path.startsWith('/dav/')) return undefined;
  try {
    return decodeURIComponent(path.slice(4).replace(/\/$/, ''));
  } catch {
    return undefined;
  }
}

function operationOf(entry: JournalEntry, before: Tree): string {
  const path = treePath(entry.path);
  switch (entry.method) {
    case 'PUT':
      return path !== undefined && before.has(path) ? 'an upload (overwrite)' : 'an upload (create)';
    case 'POST':
      return 'a create';
    case 'GET':
      return path !== undefined && before.get(path)?.kind === 'file' ? 'a download' : 'a read';
    case 'PROPFIND':
      return 'a listing';
    case 'MKCOL':
      return 'a folder create';
    case 'DELETE':
      return 'a delete';
    case 'MOVE':
      return 'a rename or move';
    default:
      return entry.method;
  }
}

function reactionTo(hit: JournalEntry, client: JournalEntry[], passOk: boolean): string {
  const later = client.filter((e) => e.seq > hit.seq);
  const again = later.find((e) => e.method === hit.method && e.path === hit.path);
  if (again) return again.headers['content-range'] ? 'resumed' : 'retried';
  if (later.some((e) => e.path === hit.path)) return 'checked, then went on';
  return passOk ? 'went on' : 'gave up (pass failed)';
}

function pathOfChange(change: DeviceChange): string | undefined {
  const value = (change as unknown as Record<string, unknown>)[changeKindOf(change)];
  return typeof value === 'string' ? value : undefined;
}

function transferOf(method: string): string {
  if (method === 'PUT' || method === 'POST') return 'an open upload';
  if (method === 'GET') return 'an open download';
  if (method === 'PROPFIND') return 'a listing';
  return `a ${method}`;
}
