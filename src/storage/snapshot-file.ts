import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import { failpoint } from './failpoints.js';
import type { NodeRecord, StateData, UserRecord } from './schema.js';
import { stateProblem, stateTempFileOf } from './state-file.js';

/** Nodes serialised per slice of a snapshot write; the event loop runs between slices. */
const NODES_PER_SLICE = 2000;

export interface Snapshot {
  state: StateData;
  /** The last log record this snapshot includes (0: none). */
  seq: number;
  /** Its size on disk. */
  bytes: number;
}

/** Keys are user-given: no prototype (set in place; copying 100,000 nodes would double the start's garbage). */
const nullProto = <T>(from: Record<string, T>): Record<string, T> =>
  Object.setPrototypeOf(from, null) as Record<string, T>;

/**
 * Reads and checks the snapshot: undefined when the file does not exist; an Error naming the file
 * when it is unreadable, not JSON, or not a csp-mock state (such a file is never overwritten).
 * Users and nodes come back as null-prototype objects: their keys are user-given.
 */
export async function readSnapshot(file: string): Promise<Snapshot | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(
      `state file ${file} is not valid JSON (${(err as Error).message}); move it away or pick another --data file`,
    );
  }
  const problem = stateProblem(value);
  if (problem) throw new Error(`state file ${file} is not a csp-mock state: ${problem}`);
  const doc = value as StateData & { logSeq?: unknown };
  const seq = doc.logSeq ?? 0;
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
    throw new Error(
      `state file ${file} is not a csp-mock state: logSeq is ${JSON.stringify(seq)}, expected a whole number`,
    );
  }
  return {
    state: {
      schema: 1,
      users: nullProto(doc.users),
      nodes: nullProto(doc.nodes),
      ...(doc.queues ? { queues: nullProto(doc.queues) } : {}),
    },
    seq,
    bytes: bytes.length,
  };
}

/**
 * Writes a snapshot atomically: a temp file, fsync, rename over the state file, fsync of the folder.
 * The users and the list of node ids are taken when it starts; each node is read when its slice is
 * written, so changes committed meanwhile may be in it too (the log replays them again, harmlessly).
 * One node per line, so the file stays readable and greppable. Returns its size.
 */
export async function writeSnapshot(file: string, state: StateData, seq: number): Promise<number> {
  const users: Array<[string, UserRecord]> = Object.entries(state.users);
  const ids = Object.keys(state.nodes);
  const nodes = state.nodes;
  const tmp = stateTempFileOf(file);
  const fh = await open(tmp, 'w');
  let bytes = 0;
  const put = async (text: string): Promise<void> => {
    const buf = Buffer.from(text, 'utf8');
    await fh.write(buf);
    bytes += buf.length;
  };
  try {
    const userLines = users.map(([login, user]) => `    ${JSON.stringify(login)}: ${JSON.stringify(user)}`);
    await put(`{\n  "schema": 1,\n  "logSeq": ${seq},\n  "users": {\n${userLines.join(',\n')}\n  },\n  "nodes": {\n`);
    let first = true;
    for (let at = 0; at < ids.length; at += NODES_PER_SLICE) {
      const lines: string[] = [];
      for (const id of ids.slice(at, at + NODES_PER_SLICE)) {
        const node: NodeRecord | undefined = nodes[id];
        if (node) lines.push(`    ${JSON.stringify(id)}: ${JSON.stringify(node)}`);
      }
      if (lines.length === 0) continue;
      await put(`${first ? '' : ',\n'}${lines.join(',\n')}`);
      first = false;
    }
    // Queues after the nodes, one per line; the key is absent when there are none (older files read the same).
    const queueLines = Object.entries(state.queues ?? {}).map(
      ([key, q]) => `    ${JSON.stringify(key)}: ${JSON.stringify(q)}`,
    );
    await put(queueLines.length ? `\n  },\n  "queues": {\n${queueLines.join(',\n')}\n  }\n}\n` : `\n  }\n}\n`);
    await fh.sync();
    await fh.close();
    failpoint('snapshot-temp-before-rename');
    await rename(tmp, file);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dirname(file));
  return bytes;
}

/** Makes a rename in `dir` durable. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * The snapshot as a lowdb adapter, so the state file stays a lowdb document: `read` checks it,
 * `write` is the atomic, sliced write above, labelled with `seq` (set it before writing).
 */
export class SnapshotFile implements Adapter<StateData> {
  seq = 0;
  bytes = 0;
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  async read(): Promise<StateData | null> {
    const snapshot = await readSnapshot(this.#file);
    if (!snapshot) return null;
    this.seq = snapshot.seq;
    this.bytes = snapshot.bytes;
    return snapshot.state;
  }

  async write(data: StateData): Promise<void> {
    this.bytes = await writeSnapshot(this.#file, data, this.seq);
  }
}
