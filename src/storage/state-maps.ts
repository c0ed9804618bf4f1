import type { QueueRecord } from './queue-records.js';
import type { NodeRecord, StateData, UserRecord } from './schema.js';

/**
 * A state as read from disk: the document's users and nodes in Maps. A Map of a million nodes is
 * built, walked and looked up far more cheaply than an object of a million keys (which V8 keeps as a
 * dictionary of internalized key strings), and any key (`__proto__`) is plain data in it. The queues
 * are few and stay as in the document.
 */
export interface StateMaps {
  schema: 1;
  users: Map<string, UserRecord>;
  nodes: Map<string, NodeRecord>;
  queues?: Record<string, QueueRecord>;
}

/** Either form of a state: the document (built by the domain, written to disk) or the Maps read back. */
export type AnyState = StateData | StateMaps;

const isStateMaps = (state: AnyState): state is StateMaps => state.nodes instanceof Map;

export function emptyStateMaps(): StateMaps {
  return { schema: 1, users: new Map(), nodes: new Map() };
}

export function nodeOf(state: AnyState, id: string): NodeRecord | undefined {
  return state.nodes instanceof Map ? state.nodes.get(id) : state.nodes[id];
}

export function putNode(state: AnyState, node: NodeRecord): void {
  if (state.nodes instanceof Map) state.nodes.set(node.id, node);
  else state.nodes[node.id] = node;
}

export function dropNode(state: AnyState, id: string): void {
  if (state.nodes instanceof Map) state.nodes.delete(id);
  else delete state.nodes[id];
}

export function putUser(state: AnyState, login: string, user: UserRecord): void {
  if (state.users instanceof Map) state.users.set(login, user);
  else state.users[login] = user;
}

/** The (login, user) pairs of either form, in the document's order. */
export function userEntries(state: AnyState): Iterable<[string, UserRecord]> {
  return state.users instanceof Map ? state.users : Object.entries(state.users);
}

/** The document form (null-prototype objects, as the domain builds it), for tools and tests that read a state. */
export function stateDocumentOf(state: AnyState): StateData {
  if (!isStateMaps(state)) return state;
  const users = Object.create(null) as StateData['users'];
  const nodes = Object.create(null) as StateData['nodes'];
  for (const [login, user] of state.users) users[login] = user;
  for (const [id, node] of state.nodes) nodes[id] = node;
  return state.queues ? { schema: 1, users, nodes, queues: state.queues } : { schema: 1, users, nodes };
}
