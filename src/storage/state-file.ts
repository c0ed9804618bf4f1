import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EARLIEST_MS, LATEST_MS } from '../clock/durations.js';
import { queueKey, type QueueRecord } from './queue-records.js';
import type { NodeRecord } from './schema.js';
import type { StateMaps } from './state-maps.js';
import { parseSyntheticBlobId } from './synthetic-content.js';

/** The snapshot is written to "<dir>/.<name>.tmp" (as lowdb's own writer does), then renamed over the file. */
export function stateTempFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/** Drops the temp file a crash during a state write may have left (the real file is still whole). */
export async function dropStateTempFile(file: string): Promise<void> {
  await rm(stateTempFileOf(file), { force: true });
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What makes a parsed document's top level unusable as a schema-1 state, or undefined. Its nodes
 * are checked by `stateMapsProblem` once in a Map; `nodesIsObject` says whether they were an object.
 */
export function documentProblem(value: unknown, nodesIsObject: boolean): string | undefined {
  if (!isRecord(value)) return 'the top level is not an object';
  if (value['schema'] !== 1) return `schema is ${JSON.stringify(value['schema'])}, expected 1`;
  if (!isRecord(value['users'])) return '"users" is not an object';
  if (!nodesIsObject) return '"nodes" is not an object';
  if (value['queues'] !== undefined && !isRecord(value['queues'])) return '"queues" is not an object';
  return undefined;
}

/**
 * What makes a state read into Maps (and maybe changed by its log since) unusable, or undefined:
 * a node of the wrong shape or under a key that is not its id, a user without a root, a tree that
 * is not a tree. Each node is looked at a constant number of times, with no allocation per node.
 */
export function stateMapsProblem(state: StateMaps): string | undefined {
  let problem: string | undefined;
  // forEach rather than for-of over entries: no [key, value] pair is made per node.
  state.nodes.forEach((node, id) => {
    problem ??= nodeProblem(id, node);
  });
  const queues = state.queues ?? {};
  for (const key of Object.keys(queues)) problem ??= queueProblem(key, queues[key], state);
  return problem ?? treeProblem(state);
}

/**
 * Every user has a root container, and every node hangs below a user's root: its parent exists, and
 * following parents never comes back to a node already on the way (a cycle would loop forever; a
 * node below a missing parent would vanish from every view). Linear: a node's walk stops at the first
 * ancestor known to reach a root, and only ancestors are remembered (the containers, not every file).
 */
function treeProblem(state: StateMaps): string | undefined {
  const { users, nodes } = state;
  const roots = new Set<string>();
  for (const [login, user] of users) {
    const rootId = isRecord(user) ? user['rootId'] : undefined;
    if (typeof rootId !== 'string' || !isRecord(nodes.get(rootId))) return `user "${login}" has no root container`;
    roots.add(rootId);
  }
  /** 1: an ancestor on the walk under way; 2: known to reach a root. */
  const reaches = new Map<string, 1 | 2>();
  const path: string[] = [];
  for (const start of nodes.values()) {
    path.length = 0;
    let id = start.id;
    let parentId = start.parentId;
    for (;;) {
      if (parentId === null) {
        if (!roots.has(id)) return `node "${id}" has no parent and is no user's root`;
        break;
      }
      const mark = reaches.get(parentId);
      if (mark === 2) break;
      if (mark === 1 || parentId === start.id) {
        const cycle = [start.id, ...path];
        return `nodes ${[...cycle.slice(cycle.indexOf(parentId)), parentId].map((n) => JSON.stringify(n)).join(' -> ')} form a parent cycle`;
      }
      const parent: NodeRecord | undefined = nodes.get(parentId);
      if (!parent) return `node "${id}" has parent "${parentId}", which is not in the state`;
      reaches.set(parentId, 1);
      path.push(parentId);
      id = parentId;
      parentId = parent.parentId;
    }
    for (const done of path) reaches.set(done, 2);
  }
  return undefined;
}

/** Stored times are Unix seconds from 1970 to 9999: a later one would make every answer that shows it fail. */
const [FIRST_SECOND, LAST_SECOND] = [EARLIEST_MS / 1000, Math.floor(LATEST_MS / 1000)];

/** A test a stored value must pass, and what a message says was expected instead. */
interface Check {
  ok(value: unknown): boolean;
  expected: string;
}
const check = (expected: string, ok: (value: unknown) => boolean): Check => ({ ok, expected });
const orNull = (c: Check): Check => check(`null or ${c.expected}`, (v) => v === null || c.ok(v));
const listOf = (c: Check, of: string): Check =>
  check(`a list of ${of}`, (v) => Array.isArray(v) && v.every((item) => c.ok(item)));

const STRING = check('a string', (v) => typeof v === 'string');
const COUNT = check('a whole number', (v) => Number.isSafeInteger(v) && (v as number) >= 0);
const KIND = check('"container" or "file"', (v) => v === 'container' || v === 'file');
const TIME = check(
  `Unix seconds from ${FIRST_SECOND} (1970) to ${LAST_SECOND} (9999-12-31)`,
  (v) => typeof v === 'number' && v >= FIRST_SECOND && v <= LAST_SECOND,
);
/** An object whose own values are all strings (for-in: no array of values made for the usual empty one). */
const DICT = check('an object of strings', (v) => {
  if (!isRecord(v)) return false;
  for (const key in v) if (Object.hasOwn(v, key) && typeof v[key] !== 'string') return false;
  return true;
});
const BLOB_ID = check('a blob id (32 hex digits, or generated content)', (v) => {
  return typeof v === 'string' && (/^[0-9a-f]{32}$/.test(v) || parseSyntheticBlobId(v) !== undefined);
});
const PATH = check('', (v) => typeof v === 'string' && v.startsWith('/'));
const EVENT_NAMES = ['cdmi_create_complete', 'cdmi_modify_complete', 'cdmi_delete', 'cdmi_rename'];

/** Each record's fields in the order they are checked; several fields named in one key share a check. */
type Fields = ReadonlyArray<readonly [field: string, check: Check]>;
const fields = (table: Record<string, Check>): Fields =>
  Object.entries(table).flatMap(([names, c]) => names.split(' ').map((name) => [name, c] as const));

const NODE_FIELDS = fields({
  kind: KIND,
  'name owner': STRING,
  bytes: COUNT,
  blobId: orNull(BLOB_ID),
  parentId: orNull(STRING),
  tags: listOf(STRING, 'strings'),
  'metadata deadProps': DICT,
  'created modified accessed': TIME,
  recycled: orNull(TIME),
});
const QUEUE_KEY_FIELDS = fields({ 'owner name': STRING });
const QUEUE_FIELDS = fields({
  id: STRING,
  created: TIME,
  events: listOf(STRING, 'strings'),
  scope: orNull(listOf(PATH, 'paths starting with "/"')),
  metadata: check('an object', isRecord),
  limit: check('a whole number, at least 1', (v) => COUNT.ok(v) && (v as number) >= 1),
  'next dropped': COUNT,
  values: check('a list', Array.isArray),
});
const VALUE_FIELDS = fields({ seq: COUNT });
const EVENT_FIELDS = fields({
  event: check(EVENT_NAMES.join(', '), (v) => EVENT_NAMES.includes(v as string)),
  'user objectId name contentTag': STRING,
  bytes: COUNT,
  time: TIME,
  kind: KIND,
  parentId: orNull(STRING),
  parentPath: listOf(STRING, 'strings'),
});

/** The first field of `record` (called `at` in the message) that fails its check, or undefined. */
function fieldsProblem(at: string, record: unknown, table: Fields): string | undefined {
  if (!isRecord(record)) return `${at} is ${record === undefined ? 'missing' : shown(record)}, expected an object`;
  for (let i = 0; i < table.length; i++) {
    const [field, { ok, expected }] = table[i]!;
    const value = record[field];
    if (ok(value)) continue;
    return value === undefined
      ? `${at} has no ${field}, expected ${expected}`
      : `${at} has ${field} ${shown(value)}, expected ${expected}`;
  }
  return undefined;
}

/** A bad value as a message shows it: a number as written, anything else as JSON, cut short. */
function shown(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function nodeProblem(id: string, node: unknown): string | undefined {
  const at = `node ${JSON.stringify(id)}`;
  if (isRecord(node) && node['id'] !== id) return `${at} has id ${shown(node['id'])}, expected its key`;
  return fieldsProblem(at, node, NODE_FIELDS);
}

function queueProblem(key: string, queue: unknown, state: StateMaps): string | undefined {
  const at = `queue ${JSON.stringify(key)}`;
  let problem = fieldsProblem(at, queue, QUEUE_KEY_FIELDS);
  if (problem) return problem;
  const { owner, name } = queue as QueueRecord;
  if (queueKey(owner, name) !== key) return `${at} is stored under a key that is not its owner and name`;
  if (!state.users.has(owner)) return `${at} belongs to "${owner}", who is no user`;
  problem = fieldsProblem(at, queue, QUEUE_FIELDS);
  const { values, next } = queue as QueueRecord;
  for (let i = 0; !problem && i < values.length; i++) {
    const where = `${at} values[${i}]`;
    problem = fieldsProblem(where, values[i], VALUE_FIELDS);
    const seq = problem ? 0 : values[i]!.seq;
    if (!problem && (seq <= (values[i - 1]?.seq ?? -1) || seq >= next))
      problem = `${where} has seq ${seq}, out of order or not below next`;
    problem ??= fieldsProblem(`${where}.event`, values[i]!.event, EVENT_FIELDS);
  }
  return problem;
}
