import type { RequestHandler } from 'express';
import { networkMarkOf } from './journal.js';
import { describeNetwork } from './network-record.js';

/** One line per request once it ends: method, path (never the query, which may carry keys), status, time, user. */
export function requestLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const path = req.originalUrl.split('?')[0];
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const user = typeof res.locals['user'] === 'string' ? ` user=${res.locals['user']}` : '';
      const status = res.headersSent ? res.statusCode : 'aborted';
      log(`${req.method} ${path} ${status} ${ms.toFixed(1)}ms${user}${describeNetwork(networkMarkOf(res))}`);
    });
    next();
  };
}
