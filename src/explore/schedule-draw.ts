import type { DeviceChange, FaultRule } from '../scenarios/types.js';
import { faultLabel, type LocalEdit, type Step, type StepKind } from './schedule.js';
import type { SeededRandom } from './seeded-random.js';
import type { Tree } from '../converge/trees.js';

/** What a step is drawn from: the trees as they stand, and the methods the client has used so far. */
export interface DrawContext {
  random: SeededRandom;
  kinds: readonly StepKind[];
  /** 1-based step number, and the run's seed: they make each written content unique. */
  step: number;
  seed: number;
  local: Tree;
  remote: Tree;
  /** The client's request methods seen in this run, with how many of each it sent in its last pass. */
  methods: ReadonlyMap<string, number>;
}

const CHANGING = new Set(['PUT', 'POST', 'MKCOL', 'DELETE', 'MOVE', 'COPY', 'PATCH']);
const UPLOADS = new Set(['PUT', 'POST']);

/** The faults a pass may run under, and which methods each fits. */
const FAULTS: ReadonlyArray<{ fits: (method: string) => boolean; rule: Omit<FaultRule, 'match'> }> = [
  { fits: () => true, rule: { connection: 'reset' } },
  { fits: () => true, rule: { connection: 'close' } },
  { fits: () => true, rule: { respond: { status: 500 } } },
  { fits: () => true, rule: { respond: { status: 503 } } },
  { fits: () => true, rule: { respond: { status: 503, headers: { 'Retry-After': '1' } } } },
  { fits: (m) => CHANGING.has(m), rule: { afterCommit: 'reset' } },
  { fits: (m) => CHANGING.has(m), rule: { afterCommit: { status: 503 } } },
  { fits: (m) => m === 'GET', rule: { truncateAfterBytes: 3 } },
  { fits: (m) => UPLOADS.has(m), rule: { stallUpload: { afterBytes: 3, ms: 10 }, connection: 'reset' } },
  { fits: (m) => UPLOADS.has(m) || m === 'MKCOL', rule: { respond: { status: 507 } } },
];

const CLOCK_JUMPS = ['30s', '-5m', '1h', '-1h', '2d'];
const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

const files = (tree: Tree): string[] => [...tree.values()].filter((e) => e.kind === 'file').map((e) => e.path);
const folders = (tree: Tree): string[] => [
  '',
  ...[...tree.values()].filter((e) => e.kind === 'folder').map((e) => e.path),
];
const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));
const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The same name with its first letter's case swapped ("notes.md" -> "Notes.md"), or undefined. */
function otherCase(name: string): string | undefined {
  const first = name[0]!;
  const swapped = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return swapped === first ? undefined : swapped + name.slice(1);
}

function text(ctx: DrawContext, what: string): string {
  return `seed ${ctx.seed} step ${ctx.step}: ${what} ${ctx.random.below(1_000_000)}\n`;
}

function drawPass(ctx: DrawContext): Step {
  const { random } = ctx;
  // The methods the client has sent, and the upload and download every sync client sends sooner or later.
  const methods = [...new Set([...ctx.methods.keys(), 'PUT', 'GET'])].sort();
  const device = ctx.kinds.includes('device') && files(ctx.remote).length > 0 && random.below(4) === 0;
  // Files changed in the folder are what the next pass uploads: faults and changes aim there half the time.
  const pending = files(ctx.local).filter((p) => ctx.remote.get(p)?.sha256 !== ctx.local.get(p)!.sha256);
  const method = pending.length > 0 && random.below(2) === 0 ? 'PUT' : random.pick(methods);
  const nth = 1 + random.below(Math.max(1, Math.min(3, ctx.methods.get(method) ?? 1)));
  if (device) {
    const synced = pending.filter((p) => ctx.remote.has(p));
    const target = synced.length > 0 && random.below(2) === 0 ? random.pick(synced) : random.pick(files(ctx.remote));
    const kind = random.pick(['rename', 'delete', 'overwrite', 'move'] as const);
    const trigger = { match: { method, path: '/**' }, nth };
    const change: DeviceChange =
      kind === 'rename'
        ? { rename: target, to: `renamed-${ctx.step}-${nameOf(target)}`, trigger }
        : kind === 'delete'
          ? { delete: target, trigger }
          : kind === 'overwrite'
            ? { overwrite: target, text: text(ctx, 'second device'), trigger }
            : {
                move: target,
                to: random.pick(folders(ctx.remote).filter((f) => f !== parentOf(target))) || '/',
                trigger,
              };
    return { pass: { changes: [change] } };
  }
  if (!ctx.kinds.includes('faults')) return { pass: {} };
  const fitting = FAULTS.filter((f) => f.fits(method));
  const fault = random.pick(fitting);
  const rule: FaultRule = { match: { method, path: '/**' }, after: nth - 1, times: 1, ...structuredClone(fault.rule) };
  return { pass: { faults: [{ name: faultName(rule), ...rule }] } };
}

/** "reset of the 2nd PUT": what the rule does, to which request (the journal shows it as the fault's name). */
export function faultName(rule: FaultRule): string {
  return `${faultLabel(rule)} of the ${ordinal((rule.after ?? 0) + 1)} ${[rule.match.method].flat().join('/')}`;
}

function drawLocal(ctx: DrawContext): LocalEdit {
  const { random } = ctx;
  const present = files(ctx.local);
  const kind =
    present.length === 0
      ? 'create'
      : random.pick(['create', 'create', 'modify', 'delete', 'rename', 'move', 'case'] as const);
  if (kind === 'create' || present.length === 0) {
    const folder = random.pick(folders(ctx.local));
    return { create: `${folder}/new-${ctx.step}.txt`, text: text(ctx, 'local create') };
  }
  const target = random.pick(present);
  switch (kind) {
    case 'modify':
      return { modify: target, text: text(ctx, 'local modify') };
    case 'delete':
      return { delete: target };
    case 'rename':
      return { rename: target, to: `renamed-${ctx.step}-${nameOf(target)}` };
    case 'move': {
      const elsewhere = folders(ctx.local).filter((f) => f !== parentOf(target));
      return elsewhere.length
        ? { move: target, to: random.pick(elsewhere) || '/' }
        : { rename: target, to: `moved-${ctx.step}-${nameOf(target)}` };
    }
    default: {
      const name = otherCase(nameOf(target));
      return name
        ? { create: `${parentOf(target)}/${name}`, text: text(ctx, 'the same name in another case') }
        : { modify: target, text: text(ctx, 'local modify') };
    }
  }
}

function drawDevice(ctx: DrawContext): DeviceChange {
  const { random } = ctx;
  const present = files(ctx.remote);
  const kind =
    present.length === 0
      ? 'create'
      : random.pick(['create', 'createFolder', 'overwrite', 'rename', 'move', 'delete'] as const);
  const folder = random.pick(folders(ctx.remote));
  if (kind === 'create') return { create: `${folder}/device-${ctx.step}.txt`, text: text(ctx, 'second device create') };
  if (kind === 'createFolder') return { createFolder: `${folder}/folder-${ctx.step}` };
  const target = random.pick(present);
  if (kind === 'overwrite') return { overwrite: target, text: text(ctx, 'second device overwrite') };
  if (kind === 'rename') return { rename: target, to: `renamed-${ctx.step}-${nameOf(target)}` };
  if (kind === 'delete') return { delete: target };
  const elsewhere = folders(ctx.remote).filter((f) => f !== parentOf(target));
  return elsewhere.length ? { move: target, to: random.pick(elsewhere) || '/' } : { delete: target };
}

/** One step, drawn from the kinds allowed: about half passes, the rest edits, second-device changes, clock jumps. */
export function drawStep(ctx: DrawContext): Step {
  const { random, kinds } = ctx;
  const options: Array<'pass' | StepKind> = ['pass', 'pass', 'pass'];
  if (kinds.includes('local')) options.push('local', 'local');
  if (kinds.includes('device')) options.push('device');
  if (kinds.includes('clock') && random.below(3) === 0) options.push('clock');
  const kind = random.pick(options);
  if (kind === 'local') return { local: drawLocal(ctx) };
  if (kind === 'device') return { device: drawDevice(ctx) };
  if (kind === 'clock') return { clock: random.pick(CLOCK_JUMPS) };
  return drawPass(ctx);
}
