import type { Response } from 'express';
import type { CloudStore } from '../domain/cloud-store.js';

/**
 * The mock a request reached, as the service's routes see it: its store and its settings. One set of
 * /v2, /dav and /cdmi routes serves every mock of the process (each tenant's too); the mock's emulator
 * step leaves its context in res.locals.service (src/emulator.ts) before the routes run.
 */
export interface ServiceContext {
  store: CloudStore;
  /** The logins and passwords Basic auth accepts now (the active scenario's). */
  users: () => ReadonlyMap<string, string>;
  /** --strict, and the deviations the active scenario turns on (rest/ reads them as its RestRules). */
  rules: { strict: boolean; deviates: (deviation: string) => boolean };
  log: (line: string) => void;
  /** Links' origin: --public-url, else the request's Host. */
  publicUrl: string | undefined;
  /** A tenant's "/t/<name>", which its links carry; "" for the default mock. */
  mountPath: string;
}

export function serviceOf(res: Response): ServiceContext {
  return res.locals.service!;
}

export function storeOf(res: Response): CloudStore {
  return res.locals.service!.store;
}
