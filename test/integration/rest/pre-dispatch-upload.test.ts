import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { hotUpload } from '../../../src/rest/hot-upload.js';

const AUTH = `Basic ${Buffer.from('demo:demo').toString('base64')}`;
const BOUNDARY = 'pre-dispatch-upload';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body from parts: a file part has a filename, a field part has none. */
function multipart(parts: { name: string; filename?: string; type?: string; bytes: string }[], end = true): string {
  const lines = parts.map((p) => {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const type = p.type ? `Content-Type: ${p.type}\r\n` : '';
    return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n${p.bytes}\r\n`;
  });
  return lines.join('') + (end ? `--${BOUNDARY}--\r\n` : '');
}

/** What a client sees of an answer, minus the Date; the new file's id replaced by "<id>". */
async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: AUTH, 'X-Client-Specification': '2', 'Content-Type': TYPE, ...headers },
    body,
  });
  const { date: _date, ...rest } = Object.fromEntries(res.headers);
  const id = /\/v2\/files\/([\w-]+)/.exec(rest['location'] ?? '')?.[1];
  const hide = (s: string): string => (id ? s.split(id).join('<id>') : s);
  const text = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, hide(v)])),
    body: hide(text),
    id,
  };
}

describe('the pre-dispatch of the plainest upload (rest/hot-upload.ts) answers as the express path does', () => {
  let mock: RunningMock;
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    server = undefined;
    await mock?.close();
  });

  it('a new file from one small file part: same status, headers, body, stored file and journal entry', async () => {
    mock = await startMock({ seed: 'empty', journalBodies: 4096 });
    const root = mock.store.root('demo');
    const contents = `${mock.url}/v2/containers/${root.id}/contents`;
    const fast = await post(contents, multipart([{ name: 'file', filename: 'a.txt', bytes: 'hello' }]));
    // A query parameter the route ignores makes the pre-dispatch decline: the same upload through express.
    const full = await post(
      `${contents}?via=express`,
      multipart([{ name: 'file', filename: 'b.txt', bytes: 'hello' }]),
    );
    expect(fast.status).toBe(201);
    expect(full).toEqual({ ...fast, id: full.id });
    const [a, b] = [mock.store.get('demo', fast.id!, 'file'), mock.store.get('demo', full.id!, 'file')];
    expect({ ...a, id: 0, name: 0, created: 0, modified: 0, accessed: 0, blobId: 0 }).toEqual({
      ...b,
      id: 0,
      name: 0,
      created: 0,
      modified: 0,
      accessed: 0,
      blobId: 0,
    });
    expect([a.name, a.mimeType, a.bytes]).toEqual(['a.txt', 'text/plain', 5]);
    const journal = await mock.requests();
    expect(journal).toHaveLength(2);
    for (const entry of journal) {
      expect(entry).toMatchObject({
        method: 'POST',
        status: 201,
        user: 'demo',
        outcome: 'answered',
        scenario: 'default',
      });
      expect(entry.headers['authorization']).toBe('[removed]');
      expect(entry.requestBody?.text).toContain('hello');
    }
  });

  it('declines every unusual upload before any effect: the express path gives the same answer', async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    await mock.store.createFile('demo', root.id, { name: 'taken.txt' }, Buffer.from('x'));
    const contents = `${mock.url}/v2/containers/${root.id}/contents`;
    const cases: [string, string][] = [
      [
        'a field beside the file',
        multipart([
          { name: 'note', bytes: 'n' },
          { name: 'file', filename: 'f1.txt', bytes: 'f' },
        ]),
      ],
      [
        'two files',
        multipart([
          { name: 'a', filename: 'two-a.txt', bytes: 'a' },
          { name: 'b', filename: 'two-b.txt', bytes: 'b' },
        ]),
      ],
      ['no file part', multipart([{ name: 'note', bytes: 'n' }])],
      ['an empty filename', multipart([{ name: 'file', filename: '', bytes: 'e' }])],
      ['a name already there', multipart([{ name: 'file', filename: 'taken.txt', bytes: 't' }])],
      ['a cut-off body', multipart([{ name: 'file', filename: 'cut.txt', bytes: 'c' }], false)],
    ];
    for (const [what, body] of cases) {
      const fast = await post(contents, body);
      // Undo whatever the first one created, so the second meets the same state.
      if (fast.id) await mock.store.recycleBin.purge('demo', fast.id, true);
      const full = await post(`${contents}?via=express`, body);
      expect({ what, ...full, id: undefined }).toEqual({ what, ...fast, id: undefined });
    }
  });

  it('takes only the plainest form and hands the rest on with the body unread', async () => {
    mock = await startMock({ seed: 'empty' });
    const root = mock.store.root('demo');
    const take = hotUpload(mock.store, {
      hostAllowed: () => true,
      users: () => new Map([['demo', 'demo']]),
      admitQuiet: () => 'default',
      journal: () => undefined,
    });
    const seen: { declined: boolean; rest: string }[] = [];
    server = createServer((req, res) => {
      const declined = (): void => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.push({ declined: true, rest: Buffer.concat(chunks).toString() });
          res.end('declined');
        });
      };
      let handedOn = false;
      const handOn = (): void => {
        handedOn = true;
        declined();
      };
      if (!take(req, res, handOn)) handOn();
      else res.once('finish', () => handedOn || seen.push({ declined: false, rest: '' }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = `${base}/v2/containers/${root.id}/contents`;
    const plain = multipart([{ name: 'file', filename: 'p.txt', bytes: 'p' }]);
    const withField = multipart([
      { name: 'x', bytes: 'y' },
      { name: 'file', filename: 'q.txt', bytes: 'q' },
    ]);
    expect((await post(url, plain)).status).toBe(201);
    await post(url, withField);
    await post(url, plain, { 'X-Client-Specification': '1' });
    await post(url, 'z'.repeat(70 * 1024));
    expect(seen).toEqual([
      { declined: false, rest: '' },
      { declined: true, rest: withField },
      { declined: true, rest: plain },
      { declined: true, rest: 'z'.repeat(70 * 1024) },
    ]);
  });
});
