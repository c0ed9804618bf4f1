import { openMetadataDb, type MetadataDb } from './metadata-store.js';
import { StorageError, applyChangeSet, type ChangeSet, type LoadedState, type StatePersistence } from './persistence.js';
import type { NodeRecord, StateData, UserRecord } from './schema.js';

/**
 * Interim durable layer until the append-only log lands: lowdb rewrites the whole document on every
 * commit (cost grows with the state). In memory nothing is kept here: the store's memory is the state.
 */
export async function openWholeDocument(file: string | undefined): Promise<StatePersistence> {
  if (!file) return memoryPersistence();
  return new WholeDocument(file, await openMetadataDb(file));
}

function memoryPersistence(): StatePersistence {
  return {
    file: undefined,
    load: async () => ({ state: plainState(), notes: [] }),
    commit: async () => undefined,
    replace: async () => undefined,
    close: async () => undefined,
  };
}

class WholeDocument implements StatePersistence {
  readonly file: string;
  readonly #db: MetadataDb;

  constructor(file: string, db: MetadataDb) {
    this.file = file;
    this.#db = db;
    db.data = plainState(db.data);
  }

  async load(): Promise<LoadedState> {
    return { state: plainState(this.#db.data), notes: [] };
  }

  async commit(change: ChangeSet): Promise<void> {
    const data = this.#db.data;
    const undo = undoOf(data, change);
    applyChangeSet(data, change);
    try {
      await this.#db.write();
    } catch (err) {
      undo();
      throw storageError(err);
    }
  }

  async replace(state: StateData): Promise<void> {
    const before = this.#db.data;
    this.#db.data = plainState(state);
    try {
      await this.#db.write();
    } catch (err) {
      this.#db.data = before;
      throw storageError(err);
    }
  }

  async close(): Promise<void> {}
}

/** Puts back what applying `change` to `data` overwrites. */
function undoOf(data: StateData, change: ChangeSet): () => void {
  const users = new Map<string, UserRecord | undefined>();
  const nodes = new Map<string, NodeRecord | undefined>();
  for (const { login } of change.users ?? []) if (!users.has(login)) users.set(login, data.users[login]);
  for (const id of [...(change.nodes ?? []).map((n) => n.id), ...(change.removed ?? [])]) if (!nodes.has(id)) nodes.set(id, data.nodes[id]);
  return () => {
    for (const [login, user] of users) if (user) data.users[login] = user;
    else delete data.users[login];
    for (const [id, node] of nodes) if (node) data.nodes[id] = node;
    else delete data.nodes[id];
  };
}

/** A state whose user-keyed objects have no prototype, so "__proto__" or "constructor" is plain data. */
function plainState(from?: StateData): StateData {
  const users = Object.create(null) as Record<string, UserRecord>;
  const nodes = Object.create(null) as Record<string, NodeRecord>;
  for (const [login, user] of Object.entries(from?.users ?? {})) users[login] = user;
  for (const [id, node] of Object.entries(from?.nodes ?? {})) nodes[id] = node;
  return { schema: 1, users, nodes };
}

function storageError(err: unknown): StorageError {
  const code = (err as NodeJS.ErrnoException).code;
  return new StorageError(code === 'ENOSPC' || code === 'EDQUOT' ? 'full' : 'io', `cannot write the state file: ${(err as Error).message}`, { cause: err });
}
