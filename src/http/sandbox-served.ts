import type { Express } from 'express';
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The admin API's own paths, as express routes them (case-insensitive): it sets its pages' policies itself. */
const ADMIN_PATH = /^\/__admin(?:[/?#]|$)/i;

/** Our policy: no script, an opaque origin. */
const SANDBOX = 'sandbox';

/** True when one of the policies has a bare `sandbox` directive (no allow-* tokens that would loosen it). */
function hasBareSandbox(values: string[]): boolean {
  return values.some((value) =>
    value.split(',').some((policy) => policy.split(';').some((d) => d.trim().toLowerCase() === SANDBOX)),
  );
}

/** writeHead's headers argument applied with setHeader/appendHeader, as Node does with headers already set. */
function applyHeaders(res: ServerResponse, headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): void {
  if (!Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    return;
  }
  // [[name, value], ...] or [name, value, name, value, ...]: repeated names are repeated headers.
  const pairs: [string, OutgoingHttpHeader][] = [];
  if (headers.every((h) => Array.isArray(h))) for (const [n, v] of headers as string[][]) pairs.push([n!, v!]);
  else for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1]!]);
  for (const [name, value] of pairs) res.appendHeader(name, typeof value === 'number' ? String(value) : value);
}

/**
 * What the mock serves besides its own admin pages (stored files, listings, `respond` bodies, replayed
 * and proxied answers) shares the admin API's origin: a browser must open it sandboxed (no script, an
 * opaque origin) and never sniff it. Enforced where the headers go out (writeHead, which Node calls
 * for every answer), after every handler, fault and recording has set its own: a policy they bring is
 * kept, and ours is added beside it (a browser enforces every policy, so theirs can only restrict
 * more); X-Content-Type-Options is always ours. Overridden on the app's own response prototype, as
 * the clock's Date is (http/clock-date.ts). `mountPath`: a tenant's "/t/<name>".
 */
export function sandboxServedContent(app: Express, mountPath = ''): void {
  const writeHead = app.response.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  app.response.writeHead = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    // originalUrl: inside the admin router, express has cut its mount path off req.url.
    const url = (this.req as { originalUrl?: string }).originalUrl ?? this.req.url ?? '';
    // A tenant's app answers only under its mount ("/t/<name>"): its admin API is what follows it.
    if (this.headersSent || ADMIN_PATH.test(url.slice(mountPath.length))) return writeHead.apply(this, args);
    const last = args.at(-1);
    if (args.length > 1 && last !== undefined && last !== null && typeof last === 'object') {
      applyHeaders(this, last as OutgoingHttpHeaders | OutgoingHttpHeader[]);
      args = args.slice(0, -1);
    }
    const own = this.getHeader('content-security-policy');
    const policies = own === undefined ? [] : Array.isArray(own) ? own : [String(own)];
    if (!hasBareSandbox(policies)) this.setHeader('Content-Security-Policy', [...policies, SANDBOX]);
    this.setHeader('X-Content-Type-Options', 'nosniff');
    return writeHead.apply(this, args);
  } as typeof app.response.writeHead;
}
