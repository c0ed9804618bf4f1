import type { Readable } from 'node:stream';
import { failpoint } from '../storage/failpoints.js';
import type { NodeRecord } from '../storage/schema.js';
import { conflict, invalid } from './errors.js';
import { checkName } from './names.js';
import { checkQuota } from './account.js';
import { DEFAULT_MIME, newNode } from './node-records.js';
import type { StoreCore, WriteContext } from './store-core.js';

export interface FileInfo {
  name: string;
  mimeType?: string;
  public?: boolean;
}

export type Content = Readable | Buffer;

/** The checks of a create in `parentId`: a live container of `user`, a valid free name, no lock in the way. */
export function checkCreate(
  core: StoreCore,
  user: string,
  parentId: string,
  rawName: string,
  ctx: WriteContext | undefined,
): string {
  core.liveNode(user, parentId, 'container');
  const name = checkName(rawName);
  core.checkWrite(user, { members: [parentId] }, ctx);
  core.assertFree(parentId, name);
  return name;
}

/**
 * Creates a file; the content (if any) is streamed to a blob first, then checked and committed.
 * A file created without content has no blob (it reads as empty).
 */
export async function createFile(
  core: StoreCore,
  user: string,
  parentId: string,
  info: FileInfo,
  content?: Content,
  ctx?: WriteContext,
): Promise<NodeRecord> {
  checkCreate(core, user, parentId, info.name, ctx); // fail fast, before the body streams
  const blob = content === undefined ? { blobId: null, size: 0 } : await core.blobs.put(content);
  failpoint('blob-durable-before-record');
  try {
    return await core.transact(() => {
      // Checked again: a lock, a competing name or a delete may have landed while the body streamed.
      const name = checkCreate(core, user, parentId, info.name, ctx);
      checkQuota(core, user, blob.size);
      const node: NodeRecord = {
        ...newNode(user, 'file', name, parentId, core.now()),
        mimeType: info.mimeType?.trim() || DEFAULT_MIME,
        public: info.public ?? false,
        blobId: blob.blobId,
        bytes: blob.size,
      };
      return { change: { nodes: [node, ...core.touched(parentId)] }, result: node };
    });
  } catch (err) {
    if (blob.blobId) await core.blobs.delete(blob.blobId);
    throw err;
  }
}

/**
 * Replaces the content, or with `offset` writes a block into it (Content-Range). Writes to one file
 * run one after another, so two blocks of one file both land.
 */
export async function writeContent(
  core: StoreCore,
  user: string,
  fileId: string,
  content: Content,
  offset?: number,
  ctx?: WriteContext,
): Promise<NodeRecord> {
  const check = (): NodeRecord => {
    const file = core.liveNode(user, fileId, 'file');
    core.checkWrite(user, { content: fileId }, ctx);
    if (offset !== undefined && (offset < 0 || offset > file.bytes)) {
      throw invalid(`block offset ${offset} is beyond the end of the file (${file.bytes} bytes)`);
    }
    return file;
  };
  check();
  return core.perFile(fileId, async () => {
    const base = check();
    const blob =
      offset !== undefined && base.blobId
        ? await core.blobs.writeAt(base.blobId, offset, content)
        : await core.blobs.put(content);
    failpoint('blob-durable-before-record');
    let replaced: string | null = null;
    try {
      const written = await core.transact(() => {
        const current = check();
        if (offset !== undefined && current.blobId !== base.blobId)
          throw conflict('the file changed while the block was written');
        checkQuota(core, user, blob.size - current.bytes);
        replaced = current.blobId;
        const node = {
          ...current,
          blobId: blob.blobId,
          bytes: blob.size,
          version: current.version + 1,
          modified: core.now(),
        };
        return { change: { nodes: [node] }, result: node };
      });
      await core.dropUnreferenced([replaced]);
      return written;
    } catch (err) {
      if (blob.blobId) await core.blobs.delete(blob.blobId);
      throw err;
    }
  });
}
