import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tapAnswer } from './answer-writer.js';
import { CappedBytes, tapRequest } from './body-tap.js';
import { describeOutcome, marksOf, outcomeOf } from './journal-marks.js';
import { describeNetwork } from './network-record.js';
import { redactBodyText, redactHeaderMap } from './redaction.js';

export type LogFormat = 'text' | 'json';

export interface RequestLogOptions {
  /** 'text' (one readable line) or 'json' (one JSON object a line). Default text. */
  format?: LogFormat;
  /** Also the request and response headers and the first bytes of both bodies, secrets removed. */
  verbose?: boolean;
}

/** How many body bytes a verbose line shows. */
const VERBOSE_BODY_BYTES = 2048;

function shownBody(captured: CappedBytes): string | undefined {
  if (captured.total === 0) return undefined;
  const text = captured.bytes().toString('utf8');
  if (text.slice(0, -1).includes('\uFFFD')) return `[${captured.total} bytes, binary]`;
  const more = captured.total > VERBOSE_BODY_BYTES ? ` ...(${captured.total} bytes)` : '';
  return redactBodyText(text) + more;
}

/**
 * One line per request once it ends: method, path (never the query, which may carry keys), status,
 * time, user, the fault rule that fired and how the connection ended when that is not a plain answer.
 */
export function requestLog(watch: RequestWatch): RequestHandler {
  return (req, res, next) => {
    watch(req, res, req.originalUrl.split('?')[0]!, () => res.locals.user);
    next();
  };
}

/** Watches one request and logs its line when it ends (plain node:http objects; `user` is read then). */
export type RequestWatch = (req: IncomingMessage, res: ServerResponse, path: string, user: () => unknown) => void;

export function requestLogger(log: (line: string) => void, options: RequestLogOptions = {}): RequestWatch {
  const json = options.format === 'json';
  return (req, res, path, userOf) => {
    const started = process.hrtime.bigint();
    const requestBytes = options.verbose ? new CappedBytes(VERBOSE_BODY_BYTES) : undefined;
    const responseBytes = options.verbose ? new CappedBytes(VERBOSE_BODY_BYTES) : undefined;
    if (requestBytes) tapRequest(req as Request, requestBytes);
    if (responseBytes) tapAnswer(res as Response, responseBytes);
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const who = userOf();
      const user = typeof who === 'string' ? who : undefined;
      const marks = marksOf(res as Response);
      const fault = marks.fault;
      const outcome = outcomeOf(res as Response);
      const status = res.headersSent ? res.statusCode : null;
      if (json) {
        const line: Record<string, unknown> = {
          time: new Date().toISOString(),
          method: req.method,
          path,
          status,
          ms: Number(ms.toFixed(1)),
          user: user ?? null,
          fault: fault ?? null,
          outcome,
        };
        if (outcome === 'truncated') line['truncatedAfterBytes'] = marks.truncatedAfterBytes ?? null;
        if (marks.network) line['network'] = marks.network;
        if (options.verbose) {
          line['requestHeaders'] = redactHeaderMap(req.headers);
          line['responseHeaders'] = redactHeaderMap(res.getHeaders());
          line['requestBody'] = requestBytes && shownBody(requestBytes);
          line['responseBody'] = responseBytes && shownBody(responseBytes);
        }
        log(JSON.stringify(line));
        return;
      }
      const parts = [req.method, path, String(status ?? '-'), `${ms.toFixed(1)}ms`];
      if (user) parts.push(`user=${user}`);
      if (fault) parts.push(`fault=${fault}`);
      if (outcome !== 'answered') parts.push(`(${describeOutcome(res as Response)})`);
      const network = describeNetwork(marks.network);
      if (network) parts.push(network);
      log(parts.join(' '));
      if (options.verbose) {
        for (const [name, value] of Object.entries(redactHeaderMap(req.headers))) log(`  > ${name}: ${value}`);
        const sent = requestBytes && shownBody(requestBytes);
        if (sent) log(`  > ${sent.replace(/\n/g, '\n  > ')}`);
        for (const [name, value] of Object.entries(redactHeaderMap(res.getHeaders()))) log(`  < ${name}: ${value}`);
        const got = responseBytes && shownBody(responseBytes);
        if (got) log(`  < ${got.replace(/\n/g, '\n  < ')}`);
      }
    });
  };
}
