import { createHook } from 'node:async_hooks';
import { connect, type Socket } from 'node:net';
import { BASIC, until } from './wire-client.js';

/** One raw exchange with the times of every read: when bytes came, how many reads, how it ended. */
export interface TimedExchange {
  bytes: Buffer;
  /** Milliseconds from the request's write to each read, and its size. */
  reads: { atMs: number; size: number }[];
  ended: 'end' | 'reset' | 'error' | 'open';
  /** Milliseconds from the request's write to the end (or to the deadline, if still open). */
  endMs: number;
}

/**
 * Sends raw request bytes and records every read until the server closes, or `waitMs` passes
 * (then the socket is destroyed by us and reported 'open'). `onSocket` sees the socket first.
 */
export function timedExchange(
  port: number,
  request: string | Buffer,
  waitMs = 5000,
  onSocket?: (socket: Socket) => void,
): Promise<TimedExchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const reads: TimedExchange['reads'] = [];
    const socket = connect(port, '127.0.0.1');
    onSocket?.(socket);
    let started = 0;
    let settled = false;
    const finish = (ended: TimedExchange['ended']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), reads, ended, endMs: performance.now() - started });
    };
    const timer = setTimeout(() => finish('open'), waitMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      reads.push({ atMs: performance.now() - started, size: c.length });
    });
    socket.on('end', () => finish('end'));
    socket.on('close', () => finish('end'));
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : 'error'));
    socket.on('connect', () => {
      started = performance.now();
      socket.write(request);
    });
  });
}

/** A raw request with the demo credentials; `Connection: close` so the server ends the exchange. */
export function rawRequest(method: string, path: string, extra: Record<string, string> = {}, body = ''): string {
  const headers: Record<string, string> = {
    Host: '127.0.0.1',
    Authorization: BASIC,
    'X-Client-Specification': '2',
    Connection: 'close',
    ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
    ...extra,
  };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
}

/** Deterministic bytes that are not one repeated value (so a lost or doubled piece shows). */
export function patternBytes(size: number): Buffer<ArrayBuffer> {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
}

/** The id of the first file in demo's root, from the admin state view. */
export async function firstFileId(url: string): Promise<string> {
  const state = (await (await fetch(`${url}/__admin/state`)).json()) as { users: { demo: { tree: { id: string }[] } } };
  return state.users.demo.tree[0]!.id;
}

/**
 * Follows the timers created from now on (async_hooks sees each one made, fired or cleared);
 * `pending()` gives where each one still pending that keeps the process alive was made (Node's own
 * unref'd timers, such as the Date header cache, are left out).
 */
export function followTimers(): { pending(): string[]; stop(): void } {
  const made = new Map<number, { timer: NodeJS.Timeout; stack: string }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout')
        made.set(id, { timer: resource as NodeJS.Timeout, stack: new Error('timer made here').stack ?? '' });
    },
    destroy(id) {
      made.delete(id);
    },
  }).enable();
  return {
    pending: () => [...made.values()].filter((t) => t.timer.hasRef()).map((t) => t.stack),
    stop: () => hook.disable(),
  };
}

/** The journal once no entry is pending (the server sees a close a moment after the client does). */
export function settledJournal<T extends { outcome: string }>(requests: () => Promise<T[]>): Promise<T[]> {
  return until(requests, (entries) => !entries.some((e) => e.outcome === 'pending'));
}
