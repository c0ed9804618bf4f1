import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';
import type { Clock } from '../clock/mock-clock.js';

/**
 * The Date header from the mock's clock, stamped as the headers go out (not on arrival: a delayed or
 * long answer would carry a stale time). An answer that brings its own Date (a proxied or replayed one)
 * keeps it.
 */
export function clockDate(clock: Clock): RequestHandler {
  return (_req, res, next) => {
    onHeaders(res, () => {
      if (!res.hasHeader('Date')) res.setHeader('Date', new Date(clock.now()).toUTCString());
    });
    next();
  };
}
