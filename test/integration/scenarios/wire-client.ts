import { connect } from 'node:net';
import { startMock, type RunningMock, type StartOptions } from '../../../src/index.js';
import { afterEach } from 'vitest';

export const BASIC = `Basic ${Buffer.from('demo:demo').toString('base64')}`;

/** What came back on one raw TCP connection, and how the connection ended. */
export interface WireResult {
  bytes: Buffer;
  /** 'end' (the server closed cleanly), 'reset' (ECONNRESET), 'error', or 'open' (still open at the deadline). */
  ended: 'end' | 'reset' | 'error' | 'open';
  errorCode?: string;
}

/**
 * Sends raw request bytes on a fresh socket and collects everything until the server closes it,
 * or until `waitMs` passes with the socket still open (then it is closed by us and reported 'open').
 */
export function exchange(port: number, request: string | Buffer, waitMs = 3000): Promise<WireResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let settled = false;
    const finish = (ended: WireResult['ended'], errorCode?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), ended, errorCode });
    };
    const timer = setTimeout(() => finish('open'), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish('end'));
    socket.on('close', () => finish('end'));
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : 'error', err.code));
    socket.write(request);
  });
}

/** A GET (keep-alive by default) as raw bytes, with the demo credentials. */
export function rawGet(path: string, extra: Record<string, string> = {}): string {
  const headers = {
    Host: '127.0.0.1',
    Authorization: BASIC,
    'X-Client-Specification': '2',
    Connection: 'keep-alive',
    ...extra,
  };
  return `GET ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

export interface ParsedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Splits the first HTTP/1.1 response out of raw bytes (bodies here are never chunked unless noted). */
export function parseResponse(bytes: Buffer): ParsedResponse {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete header block in ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine, ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bytes.subarray(split + 4) };
}

/** A running mock per test, closed afterwards (every test starts from a fresh state). */
export function useRunningMock(options: () => StartOptions): {
  readonly mock: RunningMock;
  start(extra?: StartOptions): Promise<RunningMock>;
} {
  let current: RunningMock | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get mock() {
      if (!current) throw new Error('call start() first');
      return current;
    },
    async start(extra: StartOptions = {}) {
      current = await startMock({ ...options(), ...extra });
      return current;
    },
  };
}

/** Milliseconds a promise took. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/**
 * Reads `read()` again every few milliseconds until `holds` says yes, and returns that value. No deadline of its
 * own: the test's timeout is the only limit, since a busy machine is slower, never wrong.
 */
export async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}
