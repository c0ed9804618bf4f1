import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ScenarioDefinition } from '../../../src/index.js';
import { firstFileId, patternBytes, settledJournal } from './network-client.js';
import { BASIC, useRunningMock } from './wire-client.js';

const KiB = 1024;
const HEADERS = { Authorization: BASIC, 'X-Client-Specification': '2' };
const seeded = (extra: ScenarioDefinition): ScenarioDefinition => ({
  seed: { tree: [{ file: 'target.bin', text: 'old' }] },
  ...extra,
});

/** A raw upload that writes as fast as the socket takes bytes; `accepted` is what the socket has taken. */
interface PushingUpload {
  socket: Socket;
  accepted(): number;
  response(): string;
  ended: Promise<'end' | 'reset' | 'error'>;
}

function pushUpload(port: number, method: string, path: string, total: number): PushingUpload {
  const socket = connect(port, '127.0.0.1');
  const piece = Buffer.alloc(64 * KiB, 7);
  let accepted = 0;
  let answer = '';
  const pump = (): void => {
    while (accepted < total && !socket.destroyed) {
      accepted += piece.length;
      if (!socket.write(piece)) return;
    }
  };
  socket.on('connect', () => {
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC}\r\nX-Client-Specification: 2\r\nContent-Type: application/octet-stream\r\nContent-Length: ${total}\r\n\r\n`,
    );
    pump();
  });
  socket.on('drain', pump);
  socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  const ended = new Promise<'end' | 'reset' | 'error'>((resolve) => {
    socket.on('close', () => resolve('end'));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : 'error'),
    );
  });
  // What the socket has taken is what was written minus what still waits in its buffer.
  return { socket, accepted: () => accepted - socket.writableLength, response: () => answer, ended };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('network conditions on the request body, on the wire (stallUpload, hang of the request, bandwidth up)', () => {
  const running = useRunningMock(() => ({}));

  it('stallUpload blocks the client after N bytes while other clients are served and a switch goes through', async () => {
    const mock = await running.start({
      scenario: seeded({
        faults: [
          {
            name: 'stall',
            match: { method: 'PUT', path: '/v2/files/*/content' },
            stallUpload: { afterBytes: 100 * KiB },
          },
        ],
      }),
    });
    const id = await firstFileId(mock.url);
    const upload = pushUpload(mock.port, 'PUT', `/v2/files/${id}/content`, 512 * 1024 * KiB);
    await sleep(400);
    const stuck = upload.accepted();
    await sleep(400);
    // The writes stopped: what the socket takes stays where it was, far below the body.
    expect(upload.accepted()).toBe(stuck);
    expect(stuck).toBeLessThan(128 * 1024 * KiB);
    expect(upload.response()).toBe('');
    // Another client is served, and a switch does not wait for the stalled upload: it ends it.
    expect((await fetch(`${mock.url}/v2`, { headers: HEADERS })).status).toBe(200);
    await mock.useScenario('default');
    expect(mock.scenario.name).toBe('default');
    expect(['end', 'reset']).toContain(await upload.ended);
    const [stalled] = await settledJournal(mock.requests);
    expect(stalled).toMatchObject({
      fault: 'stall',
      outcome: 'closed',
      network: { conditions: ['stallUpload'], bytesIn: 100 * KiB, bytesOut: 0 },
    });
  });

  it('stallUpload then respond: the answer comes while the client is still blocked writing (WebDAV PUT)', async () => {
    const mock = await running.start({
      scenario: {
        faults: [
          {
            match: { method: 'PUT', path: '/dav/**' },
            stallUpload: { afterBytes: 32 * KiB, ms: 200 },
            respond: { status: 408, body: 'too slow\n' },
          },
        ],
      },
    });
    const outcome = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${mock.url}/dav/upload.bin`,
        { method: 'PUT', headers: { Authorization: BASIC, 'Content-Length': String(256 * 1024 * KiB) } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
          res.on('error', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', (err) =>
        err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err),
      );
      const piece = Buffer.alloc(64 * KiB);
      const pump = (): void => {
        while (!req.destroyed && req.write(piece));
      };
      req.on('drain', pump);
      pump();
    });
    expect(outcome).toEqual({ status: 408, body: 'too slow\n' });
    const [entry] = await settledJournal(mock.requests);
    expect(entry).toMatchObject({ status: 408, network: { conditions: ['stallUpload'], bytesIn: 32 * KiB } });
  });

  it('stallUpload then connection "reset": the client sees ECONNRESET after ms', async () => {
    const mock = await running.start({
      scenario: {
        faults: [
          { match: { method: 'PUT', path: '/dav/**' }, stallUpload: { afterBytes: 0, ms: 300 }, connection: 'reset' },
        ],
      },
    });
    const upload = pushUpload(mock.port, 'PUT', '/dav/x.bin', 64 * 1024 * KiB);
    const started = performance.now();
    expect(await upload.ended).toBe('reset');
    expect(performance.now() - started).toBeGreaterThan(250);
    expect(upload.response()).toBe('');
    const [entry] = await settledJournal(mock.requests);
    expect(entry).toMatchObject({ outcome: 'reset', network: { conditions: ['stallUpload'], bytesIn: 0 } });
  });

  it('hang of the request: N bytes read, silence, then the connection closes after ms with no answer', async () => {
    const mock = await running.start({
      scenario: {
        faults: [{ match: { method: 'PUT', path: '/dav/**' }, hang: { of: 'request', afterBytes: 8 * KiB, ms: 300 } }],
      },
    });
    const upload = pushUpload(mock.port, 'PUT', '/dav/x.bin', 64 * 1024 * KiB);
    const ended = await upload.ended;
    expect(['end', 'reset']).toContain(ended);
    expect(upload.response()).toBe('');
    const [entry] = await settledJournal(mock.requests);
    expect(entry).toMatchObject({
      outcome: 'closed',
      status: null,
      network: { conditions: ['hang(request)'], bytesIn: 8 * KiB },
    });
  });

  it('bandwidth up 64 KiB/s: a 128 KiB upload is read at about that rate and stored whole', async () => {
    const mock = await running.start({ scenario: seeded({ network: { bandwidth: { up: '64 KiB/s' } } }) });
    const id = await firstFileId(mock.url);
    const body = patternBytes(128 * KiB);
    const started = performance.now();
    const put = await fetch(`${mock.url}/v2/files/${id}/content`, {
      method: 'PUT',
      headers: { ...HEADERS, 'Content-Type': 'application/octet-stream' },
      body,
    });
    const seconds = (performance.now() - started) / 1000;
    expect(put.status).toBeLessThan(300);
    const rate = body.length / seconds;
    expect(rate).toBeGreaterThan(32 * KiB);
    expect(rate).toBeLessThan(100 * KiB);
    const stored = Buffer.from(
      await (await fetch(`${mock.url}/v2/files/${id}/content`, { headers: HEADERS })).arrayBuffer(),
    );
    expect(stored.equals(body)).toBe(true);
    const entries = await settledJournal(mock.requests);
    expect(entries.find((e) => e.method === 'PUT')).toMatchObject({
      network: { conditions: ['bandwidth'], bytesIn: body.length },
    });
  });

  it('bandwidth up paces a multipart upload too, and the file arrives whole', async () => {
    const mock = await running.start({ scenario: { seed: { tree: [] }, network: { bandwidth: { up: '256 KiB/s' } } } });
    const state = (await (await fetch(`${mock.url}/__admin/state`)).json()) as { users: { demo: { rootId: string } } };
    const body = patternBytes(96 * KiB);
    const form = new FormData();
    form.append('file', new Blob([body]), 'photo.bin');
    const posted = await fetch(`${mock.url}/v2/containers/${state.users.demo.rootId}/contents`, {
      method: 'POST',
      headers: HEADERS,
      body: form,
    });
    expect(posted.status).toBe(201);
    const stored = Buffer.from(await (await fetch(`${mock.url}/dav/photo.bin`, { headers: HEADERS })).arrayBuffer());
    expect(stored.equals(body)).toBe(true);
    const post = (await settledJournal(mock.requests)).find((e) => e.method === 'POST');
    expect(post?.network?.bytesIn).toBeGreaterThan(body.length);
    expect(post?.durationMs).toBeGreaterThan(200);
  });

  it('bandwidth up paces a body read by express.raw too (a reader that only listens for data, never resumes)', async () => {
    const mock = await running.start({ scenario: seeded({ network: { bandwidth: { up: '64 KiB/s' } } }) });
    const id = await firstFileId(mock.url);
    const value = 'v'.repeat(48 * KiB);
    const started = performance.now();
    const put = await fetch(`${mock.url}/v2/files/${id}/metadata/note`, {
      method: 'PUT',
      headers: { ...HEADERS, 'Content-Type': 'text/plain' },
      body: value,
    });
    const seconds = (performance.now() - started) / 1000;
    expect(put.status).toBe(204);
    // 48 KiB at 64 KiB/s: at least about 0.75 s (a lower bound only: a busy machine is slower, never faster).
    expect(seconds).toBeGreaterThan(0.5);
    const stored = await fetch(`${mock.url}/v2/files/${id}/metadata/note`, { headers: HEADERS });
    expect(await stored.text()).toBe(value);
    const entries = await settledJournal(mock.requests);
    expect(entries.find((e) => e.method === 'PUT')).toMatchObject({
      network: { conditions: ['bandwidth'], bytesIn: value.length },
    });
  });
});
