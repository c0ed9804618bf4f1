import type { NodeRecord } from '../../src/domain/model.js';

/**
 * A stored node record, as the state document holds it: a file named after its id under "root", owned by
 * "demo", times 1, version 1, nothing else set. Tests give what they are about. Keys in the schema's order
 * (the order a snapshot writes them in).
 */
export function nodeRecord({ id, ...over }: Partial<NodeRecord> & Pick<NodeRecord, 'id'>): NodeRecord {
  return {
    id,
    kind: 'file',
    owner: 'demo',
    name: id,
    parentId: 'root',
    created: 1,
    modified: 1,
    accessed: 1,
    version: 1,
    public: false,
    mimeType: '',
    bytes: 0,
    blobId: null,
    tags: [],
    metadata: {},
    deadProps: {},
    recycled: null,
    ...over,
  };
}
