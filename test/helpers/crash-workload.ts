import { HttpCloud } from './http-cloud.js';

// The project's seeded generator (mulberry32), so a failing run can be repeated with the same seed.
export { seededRandom } from '../../src/scenarios/seeded-random.js';

/** The bytes of content number `n`: its size and every byte follow from n, so any copy can be checked. */
export function contentFor(n: number): Buffer {
  const size = n % 7 === 0 ? 400_000 + (n % 600_000) : n % 30_000;
  const buf = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) buf[i] = (i * 131 + n * 7) & 0xff;
  return buf;
}

/** One worker's files: name -> { file path, content number }. */
export type Files = Map<string, { path: string; n: number }>;

export type Op =
  | { kind: 'upload'; name: string; n: number }
  | { kind: 'overwrite'; name: string; n: number }
  | { kind: 'rename'; name: string; to: string }
  | { kind: 'delete'; name: string };

/** The files after `op`, given the new file's path for an upload. */
export function apply(files: Files, op: Op, newPath?: string): Files {
  const next: Files = new Map(files);
  switch (op.kind) {
    case 'upload':
      if (newPath) next.set(op.name, { path: newPath, n: op.n });
      break;
    case 'overwrite':
      next.set(op.name, { ...files.get(op.name)!, n: op.n });
      break;
    case 'rename':
      next.delete(op.name);
      next.set(op.to, files.get(op.name)!);
      break;
    case 'delete':
      next.delete(op.name);
      break;
  }
  return next;
}

/**
 * One client working in its own container until the server goes away: every acknowledged operation
 * is applied to `files`; the operation that was under way when the connection broke is `pending`.
 */
export class Worker {
  readonly container: string;
  files: Files = new Map();
  pending: Op | undefined;
  /** Why the last run stopped: a failed connection (the kill) or an unexpected answer. */
  stopReason = '';
  #onAcknowledged: Array<() => void> = [];
  #counter = 0;
  readonly #id: number;
  readonly #random: () => number;

  constructor(id: number, container: string, random: () => number) {
    this.#id = id;
    this.container = container;
    this.#random = random;
  }

  /** Runs operations back to back until one fails (the server was killed). */
  async run(cloud: HttpCloud): Promise<void> {
    for (;;) {
      const op = this.#nextOp();
      this.pending = op;
      try {
        const path = await this.#perform(cloud, op);
        this.files = apply(this.files, op, path);
        this.pending = undefined;
        for (const resolve of this.#onAcknowledged.splice(0)) resolve();
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        this.stopReason = `${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
        return;
      }
    }
  }

  /** Resolves when the server next acknowledges one of this worker's operations. */
  nextAcknowledged(): Promise<void> {
    return new Promise((resolve) => this.#onAcknowledged.push(resolve));
  }

  #nextOp(): Op {
    const names = [...this.files.keys()];
    const roll = this.#random();
    const pick = (): string => names[Math.floor(this.#random() * names.length)]!;
    const n = Math.floor(this.#random() * 1_000_000);
    if (names.length === 0 || roll < 0.4) return { kind: 'upload', name: this.#freshName(), n };
    if (roll < 0.6) return { kind: 'overwrite', name: pick(), n };
    if (roll < 0.8) return { kind: 'rename', name: pick(), to: this.#freshName() };
    return { kind: 'delete', name: pick() };
  }

  #freshName(): string {
    this.#counter += 1;
    return `w${this.#id}-${Date.now().toString(36)}-${this.#counter}.bin`;
  }

  async #perform(cloud: HttpCloud, op: Op): Promise<string | undefined> {
    switch (op.kind) {
      case 'upload':
        return cloud.upload(this.container, op.name, contentFor(op.n));
      case 'overwrite':
        await cloud.putContent(this.files.get(op.name)!.path, contentFor(op.n));
        return undefined;
      case 'rename':
        await cloud.rename(this.files.get(op.name)!.path, op.to);
        return undefined;
      case 'delete':
        await cloud.delete(this.files.get(op.name)!.path);
        return undefined;
    }
  }
}

/** Reads a worker's container back: name -> { path, content number } where each content is checked whole. */
export async function readBack(
  cloud: HttpCloud,
  worker: Worker,
): Promise<Map<string, { path: string; bytes: Buffer }>> {
  const found = new Map<string, { path: string; bytes: Buffer }>();
  for (const item of await cloud.list(worker.container)) {
    const bytes = await cloud.content(item.path);
    if (bytes.length !== item.bytes)
      throw new Error(`${item.name}: listed ${item.bytes} bytes, served ${bytes.length}`);
    found.set(item.name, { path: item.path, bytes });
  }
  return found;
}

/** True when what was read back is exactly `files` (same names, paths and bytes). */
export function matches(found: Map<string, { path: string; bytes: Buffer }>, files: Files): boolean {
  if (found.size !== files.size) return false;
  for (const [name, { path, n }] of files) {
    const got = found.get(name);
    if (!got || got.path !== path || !got.bytes.equals(contentFor(n))) return false;
  }
  return true;
}
