import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { emptyState, type StateData } from './schema.js';
import { dropStateTempFile, readStateFile } from './state-file.js';

/** lowdb over the Memory adapter (default) or a JSON file (`--data FILE`). */
export type MetadataDb = Low<StateData>;

/**
 * Opens the metadata: in memory, or from FILE (created on the first write). A state file that is
 * not JSON or not a csp-mock state is refused with an Error naming it, never overwritten.
 */
export async function openMetadataDb(file?: string): Promise<MetadataDb> {
  if (!file) return new Low<StateData>(new Memory<StateData>(), emptyState());
  await dropStateTempFile(file);
  const db = new Low<StateData>(new JSONFile<StateData>(file), emptyState());
  db.data = (await readStateFile(file)) ?? emptyState();
  return db;
}
