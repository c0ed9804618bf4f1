import { Router, type Request, type Response } from 'express';
import { sendAnswer, type Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { methodNotAllowed } from '../http/errors.js';
import { slashlessCollectionAnswer } from './collection-slash.js';
import { copyOrMove } from './copy-move.js';
import { davErrorBodies } from './error-body.js';
import { lock, unlock } from './lock.js';
import { mkcol, remove } from './mkcol-delete.js';
import { MAX_INFINITE_PROPFIND, propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import { getOrHead, put } from './read-write.js';
import { storeOf } from '../http/service-context.js';

type Handler = (store: CloudStore, req: Request, res: Response) => Answer | Promise<Answer>;

export interface DavOptions {
  /** Depth: infinity PROPFIND answers over more nodes are refused (default MAX_INFINITE_PROPFIND). */
  maxInfiniteNodes?: number;
}

/** One handler per WebDAV method (class 1 and 2, RFC 4918). */
const handlers = (options: DavOptions): Record<string, Handler> => ({
  OPTIONS: () => OPTIONS_ANSWER,
  GET: getOrHead,
  HEAD: getOrHead,
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  PROPFIND: (store, req, res) => propfind(store, req, res, options.maxInfiniteNodes ?? MAX_INFINITE_PROPFIND),
  PROPPATCH: proppatch,
  COPY: (store, req, res) => copyOrMove(store, req, res, 'copy'),
  MOVE: (store, req, res) => copyOrMove(store, req, res, 'move'),
  LOCK: lock,
  UNLOCK: unlock,
});

export const DAV_METHODS = Object.keys(handlers({}));

/** The OPTIONS answer: WebDAV class 1 and 2. Also served at the host root, which Windows' WebDAV client probes first. */
export const OPTIONS_ANSWER: Answer = {
  status: 200,
  headers: {
    DAV: '1, 2',
    'MS-Author-Via': 'DAV',
    Allow: DAV_METHODS.join(', '),
    'Accept-Ranges': 'bytes',
    'Content-Length': '0',
  },
};

/**
 * The WebDAV view of the same store as /v2: collections are containers, resources are files. One router
 * serves every mock: each request's handler gets its mock's store (rest/service-context.ts).
 */
export function davRouter(options: DavOptions = {}): Router {
  const router = Router();
  const byMethod = handlers(options);
  router.use(async (req, res) => {
    const handler = byMethod[req.method];
    if (!handler) throw methodNotAllowed(DAV_METHODS);
    res.setHeader('DAV', '1, 2');
    const store = storeOf(res);
    return sendAnswer(res, slashlessCollectionAnswer(store, req, res) ?? (await handler(store, req, res)));
  });
  router.use(davErrorBodies());
  return router;
}
