import type { BenchRequest } from './load.js';

export interface Target {
  /** The root container's contents path, a container with a few dozen files. */
  listingPath: string;
  /** Where uploads go. */
  uploadPath: string;
  /** A 1 MiB file's content path. */
  downloadPath: string;
}

export interface Scenario {
  name: string;
  request: (target: Target, i: number) => BenchRequest;
}

const HEADERS = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};
const BOUNDARY = 'csp-mock-bench';
const SMALL_FILE = Buffer.alloc(1024, 'x');

/** A multipart body with one 1 KiB file part named after the request number (names must be unique). */
function uploadBody(i: number): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench-${i}.txt"\r\nContent-Type: text/plain\r\n\r\n`),
    SMALL_FILE,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** The four measured requests: entry document, a listing, a small upload, a 1 MiB download. */
export const SCENARIOS: Scenario[] = [
  { name: 'GET /v2', request: () => ({ method: 'GET', path: '/v2', headers: HEADERS, expect: 200 }) },
  {
    name: 'GET contents (40 items)',
    request: (t) => ({ method: 'GET', path: t.listingPath, headers: { ...HEADERS, 'X-Cloud-Depth': '1' }, expect: 200 }),
  },
  {
    name: 'POST upload 1 KiB',
    request: (t, i) => ({
      method: 'POST',
      path: t.uploadPath,
      headers: { ...HEADERS, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: uploadBody(i),
      expect: 201,
    }),
  },
  { name: 'GET 1 MiB content', request: (t) => ({ method: 'GET', path: t.downloadPath, headers: HEADERS, expect: 200 }) },
];
