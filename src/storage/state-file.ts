import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EARLIEST_MS, LATEST_MS } from '../clock/durations.js';
import { queueKey } from './queue-records.js';
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

const BLOB_ID = /^[0-9a-f]{32}$/;

/** What is wrong with a node stored under `id`, or undefined. */
function nodeProblem(id: string, node: unknown): string | undefined {
  if (!isRecord(node) || node['id'] !== id) return `node "${id}" is malformed`;
  if (node['kind'] !== 'container' && node['kind'] !== 'file')
    return `node "${id}" has kind ${JSON.stringify(node['kind'])}`;
  if (typeof node['name'] !== 'string' || typeof node['owner'] !== 'string')
    return `node "${id}" lacks a name or owner`;
  const blobId = node['blobId'];
  if (typeof node['bytes'] !== 'number' || !(blobId === null || typeof blobId === 'string')) {
    return `node "${id}" has no valid bytes/blobId`;
  }
  if (typeof blobId === 'string' && !BLOB_ID.test(blobId) && !parseSyntheticBlobId(blobId))
    return `node "${id}" names blob "${blobId}"`;
  if (!(node['parentId'] === null || typeof node['parentId'] === 'string'))
    return `node "${id}" has a parentId that is neither null nor a string`;
  if (!isListOfStrings(node['tags'])) return `node "${id}" has tags that are not a list of strings`;
  if (!isDictOfStrings(node['metadata'])) return `node "${id}" has metadata that is not an object of strings`;
  if (!isDictOfStrings(node['deadProps'])) return `node "${id}" has deadProps that is not an object of strings`;
  for (const field of ['created', 'modified', 'accessed'] as const) {
    if (!isStoredTime(node[field])) return `node "${id}" has ${field} ${timeText(node[field])}, expected ${TIME_RANGE}`;
  }
  if (node['recycled'] !== null && !isStoredTime(node['recycled']))
    return `node "${id}" has recycled ${timeText(node['recycled'])}, expected null or ${TIME_RANGE}`;
  return undefined;
}

/**
 * Stored times are Unix seconds inside the clock's range (1970 to 9999): a time past what an ISO or HTTP date can
 * write would make every answer that shows it (a PROPFIND, a listing, a queue read) fail, so it is refused at start.
 */
const EARLIEST_SECONDS = EARLIEST_MS / 1000;
const LATEST_SECONDS = Math.floor(LATEST_MS / 1000);
const TIME_RANGE = `Unix seconds from ${EARLIEST_SECONDS} (1970) to ${LATEST_SECONDS} (9999-12-31)`;

function isStoredTime(value: unknown): boolean {
  return typeof value === 'number' && value >= EARLIEST_SECONDS && value <= LATEST_SECONDS;
}

/** A bad value as a message shows it: a number as written, anything else as JSON, cut short. */
function timeText(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function isListOfStrings(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/** An object whose own values are all strings (for-in: no array of values made for the usual empty one). */
function isDictOfStrings(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key) && typeof value[key] !== 'string') return false;
  return true;
}

const EVENT_NAMES = ['cdmi_create_complete', 'cdmi_modify_complete', 'cdmi_delete', 'cdmi_rename'];
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** What is wrong with a notification queue stored under `key`, or undefined: each field checked, as for nodes. */
function queueProblem(key: string, queue: unknown, state: StateMaps): string | undefined {
  const at = `queue ${JSON.stringify(key)}`;
  if (!isRecord(queue)) return `${at} is not an object`;
  const { owner, name } = queue;
  if (typeof owner !== 'string' || typeof name !== 'string') return `${at} lacks an owner or name`;
  if (queueKey(owner, name) !== key) return `${at} is stored under a key that is not its owner and name`;
  if (!state.users.has(owner)) return `${at} belongs to "${owner}", who is no user`;
  if (typeof queue['id'] !== 'string') return `${at} has no id`;
  if (!isStoredTime(queue['created'])) return `${at} has created ${timeText(queue['created'])}, expected ${TIME_RANGE}`;
  if (!isListOfStrings(queue['events'])) return `${at} has events that are not a list of strings`;
  const scope = queue['scope'];
  if (scope !== null && !(isListOfStrings(scope) && (scope as string[]).every((p) => p.startsWith('/'))))
    return `${at} has a scope that is neither null nor a list of paths starting with "/"`;
  if (!isRecord(queue['metadata'])) return `${at} has metadata that is not an object`;
  for (const field of ['limit', 'next', 'dropped'] as const) {
    if (!isCount(queue[field])) return `${at} has ${field} ${JSON.stringify(queue[field])}, expected a whole number`;
  }
  if ((queue['limit'] as number) < 1) return `${at} has limit 0, expected at least 1`;
  const values = queue['values'];
  if (!Array.isArray(values)) return `${at} has values that are not a list`;
  let seq = -1;
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    const where = `${at} values[${i}]`;
    if (!isRecord(value) || !isCount(value['seq'])) return `${where} has no whole-number seq`;
    if ((value['seq'] as number) <= seq || (value['seq'] as number) >= (queue['next'] as number))
      return `${where} has seq ${String(value['seq'])}, out of order or not below next`;
    seq = value['seq'] as number;
    const problem = eventProblem(value['event']);
    if (problem) return `${where} ${problem}`;
  }
  return undefined;
}

function eventProblem(event: unknown): string | undefined {
  if (!isRecord(event)) return 'has no event object';
  if (!EVENT_NAMES.includes(event['event'] as string)) return `has event ${JSON.stringify(event['event'])}`;
  for (const field of ['user', 'objectId', 'name', 'contentTag'] as const)
    if (typeof event[field] !== 'string') return `has an event whose ${field} is not a string`;
  if (typeof event['bytes'] !== 'number') return 'has an event whose bytes is not a number';
  if (!isStoredTime(event['time']))
    return `has an event whose time is ${timeText(event['time'])}, expected ${TIME_RANGE}`;
  if (event['kind'] !== 'container' && event['kind'] !== 'file')
    return 'has an event whose kind is not container or file';
  if (!(event['parentId'] === null || typeof event['parentId'] === 'string'))
    return 'has an event whose parentId is neither null nor a string';
  if (!isListOfStrings(event['parentPath'])) return 'has an event whose parentPath is not a list of strings';
  return undefined;
}
