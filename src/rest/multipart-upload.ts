import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { CloudStore } from '../domain/cloud-store.js';
import { baseName } from '../domain/names.js';
import type { NodeRecord } from '../domain/model.js';
import { badRequest } from '../http/errors.js';
import { guessMimeType } from '../domain/mime-types.js';

/** Where one uploaded file part goes: a new file in a container, or the content of an existing file. */
export type PartWriter = (name: string, mimeType: string | undefined, content: Readable) => Promise<NodeRecord>;

/** How a multipart body is read: the part names taken (undefined: any), and what undoes a written part. */
export interface UploadRules {
  /** Under --strict only the documented "file"; else any single file part is the upload. */
  partNames?: readonly string[];
  /** Undoes the written part when the body turns out bad after it (a new file is purged; undefined: nothing to undo). */
  undo?: (node: NodeRecord) => Promise<void>;
}

/**
 * A multipart/form-data POST to a container's contents, with one file part (named file, Filedata, or after the
 * file: any name works, unless `rules.partNames` says otherwise). The part streams straight into the store;
 * nothing is buffered whole or written twice.
 */
export async function receiveUpload(
  store: CloudStore,
  req: Request,
  res: Response,
  user: string,
  parentId: string,
  partNames?: readonly string[],
): Promise<NodeRecord> {
  return receivePart(
    req,
    res,
    (name, mimeType, content) => store.createFile(user, parentId, { name, mimeType }, content),
    { partNames, undo: (node) => store.recycleBin.purge(user, node.id, true) },
  );
}

/** Reads a multipart body whose one file part `write` stores; answers the node written. */
export async function receivePart(
  req: Request,
  res: Response,
  write: PartWriter,
  rules: UploadRules,
): Promise<NodeRecord> {
  if (!/;\s*boundary=/i.test(req.headers['content-type'] ?? '')) {
    throw badRequest('multipart/form-data needs a boundary parameter in Content-Type');
  }
  const created: NodeRecord[] = [];
  let storeFailure: unknown;
  const engine: multer.StorageEngine = {
    _handleFile(_req, file, done) {
      if (rules.partNames && !rules.partNames.includes(file.fieldname)) {
        done(
          badRequest(
            `the file part is named ${JSON.stringify(file.fieldname)}; --strict takes only the documented part name ${rules.partNames.map((n) => JSON.stringify(n)).join(', ')}`,
          ),
        );
        return;
      }
      const name = baseName(file.originalname);
      write(name, guessMimeType(name, file.mimetype), file.stream).then(
        (node) => {
          created.push(node);
          done(null, { size: node.bytes });
        },
        (err: unknown) => {
          storeFailure = err;
          done(err);
        },
      );
    },
    _removeFile(_req, _file, done) {
      const node = created.pop();
      if (!node || !rules.undo) return done(null);
      rules.undo(node).then(() => done(null), done);
    },
  };
  // Browsers and most clients send raw UTF-8 filenames without an RFC 5987 charset.
  const upload = multer({
    storage: engine,
    defParamCharset: 'utf8',
    limits: { files: 1, fields: 100, fieldSize: 1024 * 1024 },
  }).any();
  await new Promise<void>((resolve, reject) =>
    upload(req, res, (err?: unknown) => (err ? reject(asRequestError(err, storeFailure)) : resolve())),
  );
  const node = created[0];
  if (!node) throw badRequest('the multipart body has no file part (a part with a filename)');
  return node;
}

/**
 * Busboy's parse errors ("Malformed part header": too many header lines in a part, a NUL in one) are
 * the request's fault: 400. Errors of the store, of the file system and multer's own limit errors keep their meaning.
 */
function asRequestError(err: unknown, storeFailure: unknown): unknown {
  if (err === storeFailure || err instanceof multer.MulterError || !(err instanceof Error)) return err;
  if (typeof (err as { status?: unknown }).status === 'number') return err;
  // A system call that failed (ENOSPC while the part streams to its blob) is the server's: 507/500.
  if (typeof (err as NodeJS.ErrnoException).syscall === 'string') return err;
  return badRequest(`multipart: ${err.message}`);
}
