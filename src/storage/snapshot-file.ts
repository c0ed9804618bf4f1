import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { writeWholeFile } from '../files/whole-file.js';
import { failpoint } from './failpoints.js';
import { NodeIntake } from './node-intake.js';
import type { QueueRecord } from './queue-records.js';
import type { NodeRecord, UserRecord } from './schema.js';
import { readSnapshotLines } from './snapshot-lines.js';
import { documentProblem, isRecord, stateMapsProblem, stateTempFileOf } from './state-file.js';
import { nodeOf, userEntries, type AnyState, type StateMaps } from './state-maps.js';

/** Nodes serialised per slice of a snapshot write; the event loop runs between slices. */
const NODES_PER_SLICE = 2000;

export interface Snapshot {
  state: StateMaps;
  /** The last log record this snapshot includes (0: none). */
  seq: number;
  /** Its size on disk. */
  bytes: number;
}

/**
 * Reads and checks the snapshot: undefined when the file does not exist; an Error naming the file
 * when it is unreadable, not JSON, or not a csp-mock state (such a file is never overwritten).
 * A file as writeSnapshot writes it is read line by line (snapshot-lines.ts); any other layout of the
 * same JSON (a file edited by hand or by a tool) is parsed whole, to the same state.
 */
export async function readSnapshot(
  file: string,
  onRead?: (done: number, total: number) => void,
): Promise<Snapshot | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let read: DocumentRead | undefined;
  try {
    read = await readSnapshotLines(fh, onRead);
  } catch (err) {
    throw new Error(`cannot read state file ${file}: ${(err as Error).message}`);
  } finally {
    await fh.close();
  }
  read ??= await readWhole(file);
  const doc = read.rest;
  const problem = documentProblem(doc, read.nodes !== undefined);
  if (problem) throw new Error(`state file ${file} is not a csp-mock state: ${problem}`);
  const top = doc as { users: Record<string, UserRecord>; queues?: Record<string, QueueRecord>; logSeq?: unknown };
  const users = new Map<string, UserRecord>();
  for (const login of Object.keys(top.users)) users.set(login, top.users[login]!);
  const state: StateMaps = {
    schema: 1,
    users,
    nodes: read.nodes!.nodes,
    // Keys are user-given: no prototype (set in place).
    ...(top.queues ? { queues: Object.setPrototypeOf(top.queues, null) as Record<string, QueueRecord> } : {}),
  };
  const stateProblem = stateMapsProblem(state);
  if (stateProblem) throw new Error(`state file ${file} is not a csp-mock state: ${stateProblem}`);
  const seq = top.logSeq ?? 0;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
    throw new Error(
      `state file ${file} is not a csp-mock state: logSeq is ${JSON.stringify(seq)}, expected a whole number`,
    );
  }
  return { state, seq, bytes: read.bytes };
}

/** A document read: its top level, its nodes taken into a Map (undefined when they are not an object). */
interface DocumentRead {
  rest: unknown;
  nodes: NodeIntake | undefined;
  bytes: number;
}

/** The whole file as one JSON text: any layout, at the cost of the whole text and a key per node at once. */
async function readWhole(file: string): Promise<DocumentRead> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
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
  const nodes = isRecord(value) ? value['nodes'] : undefined;
  if (!isRecord(nodes)) return { rest: value, nodes: undefined, bytes: bytes.length };
  const intake = new NodeIntake();
  for (const id of Object.keys(nodes)) intake.add(id, nodes[id]);
  return { rest: value, nodes: intake, bytes: bytes.length };
}

/**
 * Writes a snapshot whole or not at all (writeWholeFile: a private temp file written to the last byte,
 * fsync, rename over the state file, fsync of the folder; a full disk leaves the old snapshot as it was).
 * The users and the list of node ids are taken when it starts; each node is read when its slice is
 * written, so changes committed meanwhile may be in it too (the log replays them again, harmlessly).
 * One node per line, so the file stays readable and greppable. Returns its size.
 */
export async function writeSnapshot(file: string, state: AnyState, seq: number): Promise<number> {
  const users: Array<[string, UserRecord]> = [...userEntries(state)];
  const ids = state.nodes instanceof Map ? [...state.nodes.keys()] : Object.keys(state.nodes);
  const { bytes } = await writeWholeFile(
    file,
    async (put) => {
      const userLines = users.map(([login, user]) => `    ${JSON.stringify(login)}: ${JSON.stringify(user)}`);
      await put(`{\n  "schema": 1,\n  "logSeq": ${seq},\n  "users": {\n${userLines.join(',\n')}\n  },\n  "nodes": {\n`);
      let first = true;
      for (let at = 0; at < ids.length; at += NODES_PER_SLICE) {
        const lines: string[] = [];
        for (const id of ids.slice(at, at + NODES_PER_SLICE)) {
          const node: NodeRecord | undefined = nodeOf(state, id);
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
    },
    { temp: stateTempFileOf(file), beforePublish: () => failpoint('snapshot-temp-before-rename') },
  );
  return bytes;
}

/**
 * The snapshot as a lowdb adapter, so the state file stays a lowdb document: `read` checks it,
 * `write` is the atomic, sliced write above, labelled with `seq` (set it before writing).
 */
export class SnapshotFile implements Adapter<AnyState> {
  seq = 0;
  bytes = 0;
  readonly #file: string;
  readonly #onRead: ((done: number, total: number) => void) | undefined;

  constructor(file: string, onRead?: (done: number, total: number) => void) {
    this.#file = file;
    this.#onRead = onRead;
  }

  /** The state in Maps (see readSnapshot). */
  async read(): Promise<StateMaps | null> {
    const snapshot = await readSnapshot(this.#file, this.#onRead);
    if (!snapshot) return null;
    this.seq = snapshot.seq;
    this.bytes = snapshot.bytes;
    return snapshot.state;
  }

  async write(data: AnyState): Promise<void> {
    this.bytes = await writeSnapshot(this.#file, data, this.seq);
  }
}
