// Every request takes the one express app: what used to differ on a second, faster path is pinned here.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp, type RunningMock } from '../../../src/index.js';
import type { JournalEntry } from '../../../src/http/journal.js';
import { isMediaType } from '../../../src/http/media-type.js';
import { basic } from '../../helpers/raw-http.js';

const HEADERS = { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2' };
const BOUNDARY = 'one-path-boundary';

/** A multipart body with one file part, split so a test can hold the connection between its halves. */
function multipart(name: string, content: string): [Buffer, Buffer] {
  const body = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  );
  const half = Math.floor(body.length / 2);
  return [body.subarray(0, half), body.subarray(half)];
}

/** Opens a raw connection and sends a multipart POST's head and the first half of its body. */
async function startUpload(port: number, path: string, parts: [Buffer, Buffer]): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const length = parts[0].length + parts[1].length;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${HEADERS.Authorization}\r\n` +
      `X-Client-Specification: 2\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${length}\r\n\r\n`,
  );
  socket.write(parts[0]);
  return socket;
}

/** The status line of the answer on `socket`, once it has come. */
function statusOn(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    socket.once('error', reject);
  });
}

/** Resolves with the journal entry of the first request to `path` once the journal hears `type` for it. */
function journalEvent(mock: MockApp, path: string, type: 'added' | 'updated'): Promise<JournalEntry> {
  return new Promise((resolve) => {
    const stop = mock.journal.subscribe((event) => {
      if (event.type === type && event.entry.path === path) {
        stop();
        resolve(event.entry);
      }
    });
  });
}

async function serve(mock: MockApp): Promise<{ port: number; server: Server }> {
  const server = createServer();
  mock.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('the one request path', () => {
  let running: RunningMock | undefined;
  let mock: MockApp | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
    await mock?.close();
    mock = undefined;
  });

  it('a GET of a file whose mime_type holds a non-header character answers 500 by /v2 and /dav and the server lives on', async () => {
    running = await startMock({ seed: 'empty' });
    const root = running.store.root('demo');
    // The store takes what a state file or seed gives it; the answer must not take the process down.
    const file = await running.store.createFile(
      'demo',
      root.id,
      { name: 'euro.txt', mimeType: 'text/plain; charset=€' },
      Buffer.from('bytes'),
    );
    for (const path of [`/v2/files/${file.id}/content`, '/dav/euro.txt']) {
      const res = await fetch(`${running.url}${path}`, { headers: HEADERS });
      expect(res.status).toBe(500);
      await res.arrayBuffer();
    }
    const after = await fetch(`${running.url}/v2/account`, { headers: HEADERS });
    expect(after.status).toBe(200);
  });

  it('a PUT of a file entity whose mime_type is not a valid header value is a 400 and keeps the old type', async () => {
    running = await startMock({ seed: 'empty' });
    const root = running.store.root('demo');
    const file = await running.store.createFile(
      'demo',
      root.id,
      { name: 'a.txt', mimeType: 'text/plain' },
      Buffer.from('a'),
    );
    for (const mimeType of ['text/plain; charset=€', 'text/plain\u007f', 'no slash', 'text/plain; charset="open']) {
      const res = await fetch(`${running.url}/v2/files/${file.id}`, {
        method: 'PUT',
        headers: { ...HEADERS, 'Content-Type': 'application/vnd.csp.file-info+xml' },
        body: `<file><mime_type>${mimeType}</mime_type></file>`,
      });
      expect(res.status, mimeType).toBe(400);
      expect(await res.text()).toMatch(/mime_type/);
    }
    const ok = await fetch(`${running.url}/v2/files/${file.id}`, {
      method: 'PUT',
      headers: { ...HEADERS, 'Content-Type': 'application/vnd.csp.file-info+xml' },
      body: '<file><mime_type>text/markdown; charset=utf-8</mime_type></file>',
    });
    expect(ok.status).toBe(204);
    expect(running.store.get('demo', file.id, 'file').mimeType).toBe('text/markdown; charset=utf-8');
  });

  it('an upload whose part declares a type that is not a media type stores one that is, and its content reads back', async () => {
    running = await startMock({ seed: 'empty' });
    const root = running.store.root('demo');
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'text/plain; charset="open' }), 'odd.txt');
    const res = await fetch(`${running.url}/v2/containers/${root.id}/contents`, {
      method: 'POST',
      headers: HEADERS,
      body: form,
    });
    expect(res.status).toBe(201);
    const [file] = running.store.tree.children(root.id);
    expect(isMediaType(file!.mimeType)).toBe(true);
    const content = await fetch(`${running.url}/v2/files/${file!.id}/content`, { headers: HEADERS });
    expect([content.status, await content.text()]).toEqual([200, 'x']);
  });

  it('an aborted small multipart upload leaves no pending journal entry, and a later reset does not wait for it', async () => {
    // A grace far beyond the test's time limit: a reset that waited for the aborted upload would not come back.
    mock = await createApp({ seed: 'empty', switchGraceMs: 3_600_000 });
    ({ server } = await serve(mock));
    const { port } = server.address() as AddressInfo;
    const root = mock.store.root('demo');
    const path = `/v2/containers/${root.id}/contents`;
    const arrived = journalEvent(mock, path, 'added');
    const ended = journalEvent(mock, path, 'updated');
    const socket = await startUpload(port, path, multipart('half.txt', 'x'.repeat(2000)));
    await arrived;
    socket.destroy();
    const entry = await ended;
    expect(entry.outcome).not.toBe('pending');
    expect(mock.requests().filter((e) => e.outcome === 'pending')).toEqual([]);
    await mock.reset();
    expect(mock.store.tree.children(mock.store.root('demo').id)).toEqual([]);
  });

  it('a small upload runs under the scenario active when it arrived, and is in the journal while its body streams', async () => {
    mock = await createApp({ seed: 'empty', switchGraceMs: 3_600_000 });
    ({ server } = await serve(mock));
    const { port } = server.address() as AddressInfo;
    const root = mock.store.root('demo');
    const path = `/v2/containers/${root.id}/contents`;
    const arrived = journalEvent(mock, path, 'added');
    const parts = multipart('held.txt', 'arrived under default');
    const socket = await startUpload(port, path, parts);
    const status = statusOn(socket);
    const entry = await arrived;
    expect(entry.outcome).toBe('pending');
    // The next scenario fails every upload; it waits for the one in flight, which keeps its own.
    let switched = false;
    const switching = mock
      .useScenario({
        name: 'uploads-fail',
        faults: [{ name: 'fail', match: { method: 'POST', path: '/v2/**' }, respond: { status: 500 } }],
      })
      .then(() => (switched = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(switched).toBe(false);
    socket.write(parts[1]);
    expect(await status).toBe(201);
    socket.destroy();
    await switching;
    expect(mock.store.tree.children(root.id).map((n) => n.name)).toEqual(['held.txt']);
    const done = mock.requests({ method: 'POST' });
    expect(done).toMatchObject([{ status: 201, scenario: 'default', fault: null }]);
    // The durations tell the body's time: the entry opened when the request arrived.
    expect(done[0]!.durationMs).toBeGreaterThan(0);
    const later = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: HEADERS,
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob(['y']), 'late.txt');
        return form;
      })(),
    });
    expect(later.status).toBe(500);
  });

  it('--verbose logs the response headers of a file entity read', async () => {
    const lines: string[] = [];
    running = await startMock({ seed: 'empty', verbose: true, log: (line) => lines.push(line) });
    const root = running.store.root('demo');
    const file = await running.store.createFile(
      'demo',
      root.id,
      { name: 'a.txt', mimeType: 'text/plain' },
      Buffer.from('a'),
    );
    const res = await fetch(`${running.url}/v2/files/${file.id}`, { headers: HEADERS });
    expect(res.status).toBe(200);
    await res.text();
    await running.close();
    running = undefined;
    expect(lines).toContain('  < content-type: application/vnd.csp.file-info+xml; charset=utf-8');
    expect(lines.some((l) => l.startsWith('  < etag: "'))).toBe(true);
  });
});
