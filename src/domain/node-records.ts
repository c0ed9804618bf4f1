import { randomBytes } from 'node:crypto';
import type { NodeKind, NodeRecord } from '../storage/schema.js';
import { NO_TAGS, recordDict } from './record-values.js';

export const DEFAULT_MIME = 'application/octet-stream';

const ID_BYTES = 12;
const POOL_IDS = 1024;
let pool = Buffer.alloc(0);
let offset = 0;

/** 96 random bits, base64url; drawn from a pool, as one system call per id is slow when seeding thousands. */
function newId(): string {
  if (offset >= pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  offset += ID_BYTES;
  return pool.toString('base64url', offset - ID_BYTES, offset);
}

/**
 * A fresh node record. Records are never changed in place once committed: a change builds a new
 * record (`{ ...node, ... }`), so a record handed to the durable layer stays as it was committed.
 */
export function newNode(
  owner: string,
  kind: NodeKind,
  name: string,
  parentId: string | null,
  now: number,
  id = newId(),
): NodeRecord {
  return {
    id,
    kind,
    owner,
    name,
    parentId,
    created: now,
    modified: now,
    accessed: now,
    version: 1,
    public: false,
    mimeType: '',
    bytes: 0,
    blobId: null,
    tags: NO_TAGS,
    metadata: recordDict(),
    deadProps: recordDict(),
    recycled: null,
  };
}

/** A copy of `from` under a new id and place (blobs are immutable, so the copy shares its blob). */
export function copiedNode(from: NodeRecord, parentId: string, name: string, now: number): NodeRecord {
  return {
    ...newNode(from.owner, from.kind, name, parentId, now),
    mimeType: from.mimeType,
    public: from.public,
    bytes: from.bytes,
    blobId: from.blobId,
    tags: from.tags.length === 0 ? NO_TAGS : [...from.tags],
    metadata: recordDict(from.metadata),
    deadProps: recordDict(from.deadProps),
  };
}
