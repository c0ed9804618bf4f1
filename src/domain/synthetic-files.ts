import type { NodeRecord } from '../storage/schema.js';
import { syntheticBlobId } from '../storage/synthetic-content.js';
import { newNode } from './node-records.js';

/**
 * A file of a generated account: an ordinary node whose blob id names synthetic content (bytes derived
 * on read from the seed, its id and version 1, see storage/synthetic-content.ts) instead of stored bytes.
 * Everything else (listing, copy, move, delete, overwrite) treats it as any file.
 */
export function syntheticFileNode(
  owner: string,
  parentId: string,
  place: { id: string; name: string; mimeType: string; bytes: number; seed: number },
  now: number,
): NodeRecord {
  const node = newNode(owner, 'file', place.name, parentId, now, place.id);
  node.mimeType = place.mimeType;
  node.bytes = place.bytes;
  node.blobId =
    place.bytes === 0 ? null : syntheticBlobId({ seed: place.seed, fileId: place.id, version: 1, size: place.bytes });
  return node;
}
