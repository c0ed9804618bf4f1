import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { emptyState, type StateData } from './schema.js';

/** lowdb over the Memory adapter (default) or a JSON file (`--data FILE`). */
export type MetadataDb = Low<StateData>;

export async function openMetadataDb(file?: string): Promise<MetadataDb> {
  const adapter = file ? new JSONFile<StateData>(file) : new Memory<StateData>();
  const db = new Low<StateData>(adapter, emptyState());
  try {
    await db.read();
  } catch (err) {
    throw new Error(`cannot load state file ${file}: ${(err as Error).message}`);
  }
  if (!db.data || db.data.schema !== 1 || typeof db.data.nodes !== 'object' || typeof db.data.users !== 'object') {
    if (db.data && file && Object.keys(db.data).length > 0 && db.data.schema !== 1) {
      throw new Error(`state file ${file} is not a csp-mock state (schema ${String((db.data as { schema?: unknown }).schema)})`);
    }
    db.data = emptyState();
  }
  return db;
}
