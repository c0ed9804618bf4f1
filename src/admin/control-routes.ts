import express, { Router, type RequestHandler } from 'express';
import type { AnyControl, MockCore } from '../feature.js';
import { HttpError } from '../http/errors.js';
import { requestOrigin } from '../http/request-origin.js';
import { AdminSlots } from './admin-slots.js';

const JSON_LIMIT = '5mb';

const parseJson = express.json({ limit: JSON_LIMIT, type: 'application/json' });

/** JSON bodies only (admin-guard refuses other types); a parse error never echoes the body. */
export const jsonBody: RequestHandler = (req, res, next) => {
  parseJson(req, res, (err?: unknown) => {
    // body-parser's documented error type for a body over the limit.
    if ((err as { type?: unknown } | undefined)?.type === 'entity.too.large')
      return next(new HttpError(413, `the body is larger than the ${JSON_LIMIT} the admin API takes`));
    if (err) return next(new HttpError(400, 'the body is not valid JSON'));
    next();
  });
};

/** Each control's admin route: read the request, run the control on `mock`, answer its output as JSON. */
export function controlRoutes(controls: readonly AnyControl[], mock: MockCore): Router {
  const router = Router();
  for (const c of controls) {
    const slots = c.held && new AdminSlots(c.held.slots, c.held.what);
    const handler: RequestHandler = async (req, res) => {
      let out: unknown;
      const gone = new AbortController();
      try {
        const origin = requestOrigin(req, mock.options.publicUrl, mock.mountPath);
        const journalMark = (res.locals['journalMark'] as number | undefined) ?? mock.journal.lastSeq;
        const input = c.read({ query: req.query, body: req.body as unknown, params: req.params, origin, journalMark });
        const release = slots?.take(req);
        res.once('close', () => {
          release?.();
          gone.abort();
        });
        // A long poll bounds its own wait; the server's idle limit must not cut it first.
        const idleMs = req.socket.timeout ?? 0;
        if (slots) req.socket.setTimeout(0);
        out = await c.run(mock, input, gone.signal);
        if (slots && !res.destroyed) req.socket.setTimeout(idleMs);
      } catch (err) {
        throw c.answerOf?.(err) ?? err;
      }
      if (res.destroyed) return;
      if (c.status === 204) return void res.status(204).end();
      if (c.location) res.location(c.location(out));
      res.status(c.status ?? 200).json(out);
    };
    const path = c.path;
    if (c.method === 'GET') router.get(path, handler);
    else if (c.method === 'DELETE') router.delete(path, handler);
    else if (c.method === 'PUT') router.put(path, jsonBody, handler);
    else router.post(path, jsonBody, handler);
  }
  return router;
}
