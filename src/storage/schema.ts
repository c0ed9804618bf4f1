import type { QueueRecord } from './queue-records.js';

/**
 * The persisted state, one lowdb document:
 *
 * {
 *   schema: 1,
 *   users: { [login]: { rootId } },          // one tree per user, rooted at a container named "/"
 *   nodes: { [id]: NodeRecord },              // every container and file of every user, flat
 *   queues?: { [key]: QueueRecord },          // CDMI notification queues (queue-records.ts); absent when none
 * }
 *
 * File bytes never live here: a file's `blobId` names an immutable blob in the BlobStore.
 * A content write creates a new blob and then swaps the id, so the JSON never points at a
 * half-written blob; blobs no node points at are dropped at start.
 */
export type NodeKind = 'container' | 'file';

export interface NodeRecord {
  id: string;
  kind: NodeKind;
  owner: string;
  name: string;
  /** null only for a user's root container (whose REST parent link points at itself). */
  parentId: string | null;
  /** Unix seconds. */
  created: number;
  modified: number;
  accessed: number;
  /** Grows on every content change (files) or rename/move (both). */
  version: number;
  public: boolean;
  /** Files only; containers keep ''. */
  mimeType: string;
  /** Files: content length. Containers: 0 (the entity reports the sum of its subtree). */
  bytes: number;
  blobId: string | null;
  tags: string[];
  metadata: Record<string, string>;
  /** WebDAV dead properties, keyed by Clark notation "{namespace}name", value is the raw XML. */
  deadProps: Record<string, string>;
  /** Unix seconds when moved to the recycle bin; null while live. */
  recycled: number | null;
}

export interface UserRecord {
  rootId: string;
  /** Bytes allocated to the account when set (the second device's quota change); absent: the default, not enforced. */
  storageAllocated?: number;
}

export interface StateData {
  schema: 1;
  users: Record<string, UserRecord>;
  nodes: Record<string, NodeRecord>;
  queues?: Record<string, QueueRecord>;
}
