import type { Express } from 'express';
import type { ServerResponse } from 'node:http';

/**
 * Every answer of `app` carries a Date from the mock's clock, stamped as its headers go out (not on
 * arrival: a delayed or long answer would carry a stale time). An answer that brings its own Date (a
 * proxied or replayed one) keeps it. writeHead is where Node sends the headers, whether a handler
 * calls it or Node does on the first write; it is overridden on the app's own response prototype
 * (express's documented extension point), so a request pays no middleware or listener for it.
 */
export function stampClockDate(app: Express, clock: { httpDate(): string }): void {
  const writeHead = app.response.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  app.response.writeHead = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    // Headers given to writeHead itself are set after this one, so a Date among them wins.
    if (!this.headersSent && !this.hasHeader('Date')) this.setHeader('Date', clock.httpDate());
    return writeHead.apply(this, args);
  } as typeof app.response.writeHead;
}
