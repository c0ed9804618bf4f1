/**
 * The domain's model: users and their nodes (containers and files), as the store holds them.
 * The shape is the persisted document's (defined once, in storage/schema.ts, since storage writes it
 * and imports nothing above itself); everything above domain/ imports the model from here, never from storage/.
 */
export type { NodeKind, NodeRecord, StateData, UserRecord } from '../storage/schema.js';
/** The bytes of files, by blob id (what routes stream content from; the store hands it out as `store.blobs`). */
export type { BlobStore } from '../storage/blob-store.js';
/** Notification queues and the change events they hold. */
export type { ChangeEvent, QueueRecord, QueueValue } from '../storage/queue-records.js';
