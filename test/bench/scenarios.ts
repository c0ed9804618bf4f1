import type { BenchRequest } from './load.js';

/** Where the mock's measured requests go (filled by setup.ts). */
export interface Target {
  /** A small file's entity (auth + lookup + XML). */
  entityPath: string;
  /** A container of 40 small files, listed with X-Cloud-Depth: 1. */
  listingPath: string;
  /** One empty container per round, so every upload creates a new file. */
  uploadPaths: string[];
  /** The 8 MiB file through /v2 and through /dav. */
  bigRestPath: string;
  bigDavPath: string;
}

/** Which server a scenario's mock figure is divided by ('mock': another request to the mock itself). */
export type BaselineKind = 'express' | 'node-upload' | 'node-memory' | 'mock';

export interface Scenario {
  /** Key in the JSON report. */
  id: string;
  name: string;
  connections: number;
  baseline: BaselineKind;
  /** The target of the issue: mock/baseline throughput at least this. */
  goal: number;
  /** The mock's request; `round` picks the upload folder, `i` makes upload names unique. */
  mock: (t: Target, round: number) => BenchRequest;
  /** The same request shape against the baseline server. */
  base: (t: Target) => BenchRequest;
}

export const HEADERS = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};
export const BOUNDARY = 'csp-mock-bench';
export const UPLOAD_BYTES = 1024;
const UPLOAD_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body with one 1 KiB file part named `name` (names must be unique in a folder). */
export function uploadBody(name: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.alloc(UPLOAD_BYTES, 'x'),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const get = (path: string, headers: Record<string, string> = HEADERS, expect = 200): BenchRequest => ({
  method: 'GET',
  path,
  headers,
  expect,
});
const upload = (path: string, expect: number): BenchRequest => ({
  method: 'POST',
  path,
  headers: { ...HEADERS, 'Content-Type': UPLOAD_TYPE },
  uploadName: true,
  expect,
});

/** The throughput targets, in the order they are measured. */
export const SCENARIOS: Scenario[] = [
  {
    id: 'smallGet',
    name: 'GET file entity',
    connections: 32,
    baseline: 'express',
    goal: 0.8,
    mock: (t) => get(t.entityPath),
    base: (t) => get(t.entityPath),
  },
  {
    id: 'listing',
    name: 'GET 40-item listing',
    connections: 32,
    baseline: 'express',
    goal: 0.7,
    mock: (t) => get(t.listingPath, { ...HEADERS, 'X-Cloud-Depth': '1' }),
    base: (t) => get(t.listingPath, { ...HEADERS, 'X-Cloud-Depth': '1' }),
  },
  {
    id: 'upload1k',
    name: 'POST 1 KiB upload',
    connections: 8,
    baseline: 'node-upload',
    goal: 0.5,
    mock: (t, round) => upload(t.uploadPaths[round]!, 201),
    base: () => upload('/upload', 201),
  },
  {
    id: 'get8mRest',
    name: 'GET 8 MiB /v2',
    connections: 4,
    baseline: 'node-memory',
    goal: 0.8,
    mock: (t) => get(t.bigRestPath),
    base: () => get('/big'),
  },
  {
    id: 'get8mDav',
    name: 'GET 8 MiB /dav',
    connections: 4,
    baseline: 'node-memory',
    goal: 0.8,
    mock: (t) => get(t.bigDavPath),
    base: () => get('/big'),
  },
  {
    // A page's CORS preflight (answered before the journal and auth) costs no more than the GET it precedes.
    id: 'preflight',
    name: 'preflight vs GET /v2',
    connections: 32,
    baseline: 'mock',
    goal: 1,
    mock: () => ({
      method: 'OPTIONS',
      path: '/v2',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization,x-client-specification',
      },
      expect: 204,
    }),
    base: () => get('/v2'),
  },
];
