import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import type { RecordMode } from '../../../src/record/record-modes.js';
import { ServeProcess, killServersAfterEach } from '../../helpers/cli.js';
import { basic, readJson, useTempDir } from './support.js';

const USERS = { alice: 'pw-alice-modes', bob: 'pw-bob-modes' };

describe('record --mode once | new | all', () => {
  const tmp = useTempDir('modes');
  let upstream: RunningMock;
  let recorder: RunningMock | undefined;
  let out: string;

  beforeEach(async () => {
    out = join(tmp.path, 'session.jsonl');
    upstream = await startMock({ seed: 'empty', users: USERS });
  });
  afterEach(async () => {
    await recorder?.close();
    recorder = undefined;
    await upstream.close();
  });

  async function startRecorder(recordMode?: RecordMode): Promise<string> {
    await recorder?.close();
    recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out, recordMode } });
    return recorder.url;
  }

  const send = (url: string, path: string, init: RequestInit & { user?: keyof typeof USERS } = {}) =>
    fetch(`${url}${path}`, {
      ...init,
      headers: {
        Authorization: basic(init.user ?? 'alice', USERS[init.user ?? 'alice']),
        'X-Client-Specification': '2',
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  /** How many requests for /dav or /v2 reached the upstream. */
  const upstreamHits = async (): Promise<number> =>
    (await upstream.requests()).filter((e) => /^\/(v2|dav)/.test(e.path)).length;

  it('all (the default) sends everything to the upstream and replaces the recording on each run', async () => {
    let url = await startRecorder();
    await send(url, '/dav/a.txt', { method: 'PUT', body: 'a' });
    await send(url, '/dav/a.txt');
    url = await startRecorder('all');
    expect((await send(url, '/dav/a.txt')).status).toBe(200);
    await recorder!.close();
    expect(await upstreamHits()).toBe(3);
    const doc = await readJson(out);
    expect(doc.exchanges.map((e) => `${e.request.method} ${e.request.path}`)).toEqual(['GET /dav/a.txt']);
  });

  it('once records when there is no recording yet, then replays it without the upstream', async () => {
    let url = await startRecorder('once');
    await send(url, '/dav/once.txt', { method: 'PUT', body: 'first' });
    expect(await (await send(url, '/dav/once.txt')).text()).toBe('first');
    url = await startRecorder('once');
    const hitsBefore = await upstreamHits();
    expect((await send(url, '/dav/once.txt', { method: 'PUT', body: 'first' })).status).toBe(201);
    const replayed = await send(url, '/dav/once.txt');
    expect(replayed.status).toBe(200);
    expect(await replayed.text()).toBe('first');
    expect(await upstreamHits()).toBe(hitsBefore);
  });

  it('once refuses a request the recording does not hold: 404 naming it, nothing sent upstream, the file unchanged', async () => {
    let url = await startRecorder('once');
    await send(url, '/dav/kept.txt', { method: 'PUT', body: 'kept' });
    await recorder!.close();
    const before = await readFile(out);
    url = await startRecorder('once');
    const hitsBefore = await upstreamHits();
    const refused = await send(url, '/dav/never-recorded.txt');
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-csp-mock-replay')).toBe('miss');
    expect((await refused.text()).split('\n')[0]).toMatch(
      /no recorded exchange matches GET \/dav\/never-recorded\.txt/,
    );
    await recorder!.close();
    expect(await upstreamHits()).toBe(hitsBefore);
    expect(await readFile(out)).toEqual(before);
  });

  it('new replays what the recording holds and appends what it does not, keeping its creation time', async () => {
    let url = await startRecorder('new');
    await send(url, '/dav/n.txt', { method: 'PUT', body: 'one' });
    await recorder!.close();
    const created = (await readJson(out)).created;
    expect(created).toBeDefined();
    url = await startRecorder('new');
    const hitsBefore = await upstreamHits();
    expect((await send(url, '/dav/n.txt', { method: 'PUT', body: 'one' })).status).toBe(201);
    expect(await upstreamHits()).toBe(hitsBefore);
    expect(await (await send(url, '/dav/n.txt')).text()).toBe('one');
    expect(await upstreamHits()).toBe(hitsBefore + 1);
    await recorder!.close();
    const doc = await readJson(out);
    expect(doc.created).toBe(created);
    expect(doc.exchanges.map((e) => `${e.request.method} ${e.request.path} ${e.response.status}`)).toEqual([
      'PUT /dav/n.txt 201',
      'GET /dav/n.txt 200',
    ]);
  });

  it('new records one more identical request than a client had recorded, and replays the recorded ones in order', async () => {
    let url = await startRecorder('new');
    await send(url, '/dav/seq.txt', { method: 'PUT', body: 'v1' });
    expect(await (await send(url, '/dav/seq.txt')).text()).toBe('v1');
    url = await startRecorder('new');
    // alice replays her PUT and GET, then changes the file and reads it again: that GET is new.
    await send(url, '/dav/seq.txt', { method: 'PUT', body: 'v1' });
    expect(await (await send(url, '/dav/seq.txt')).text()).toBe('v1');
    await send(url, '/dav/seq.txt', { method: 'PUT', body: 'v2' });
    expect(await (await send(url, '/dav/seq.txt')).text()).toBe('v2');
    // As in replay, a client with no recorded answers of its own gets everyone's, from the first.
    expect(await (await send(url, '/dav/seq.txt', { user: 'bob' })).text()).toBe('v1');
    await recorder!.close();
    url = await startRecorder('new');
    const hitsBefore = await upstreamHits();
    // The next run replays all of it, in each client's order, without the upstream.
    await send(url, '/dav/seq.txt', { method: 'PUT', body: 'v1' });
    const first = await (await send(url, '/dav/seq.txt')).text();
    await send(url, '/dav/seq.txt', { method: 'PUT', body: 'v2' });
    const second = await (await send(url, '/dav/seq.txt')).text();
    expect([first, second]).toEqual(['v1', 'v2']);
    expect(await upstreamHits()).toBe(hitsBefore);
    const doc = await readJson(out);
    expect(doc.exchanges.map((e) => `${e.user} ${e.request.method} ${e.response.status}`)).toEqual([
      'alice PUT 201',
      'alice GET 200',
      'alice PUT 204',
      'alice GET 200',
    ]);
  });
});

describe('record --mode on the command line', () => {
  killServersAfterEach();
  const tmp = useTempDir('modes-cli');

  it('says on its ready line which plan the mode chose, and refuses --append with --mode once in one line', async () => {
    const upstream = await startMock({ seed: 'empty' });
    try {
      const out = join(tmp.path, 'r.jsonl');
      const first = await new ServeProcess(
        ['record', '--port', '0', '--upstream', upstream.url, '--out', out, '--mode', 'once'],
        { cwd: tmp.path },
      ).ready();
      expect(first.stdout.join('\n')).toMatch(/mode: +once: recording every request \(no recording yet\)/);
      expect((await first.stop()).code).toBe(0);
      const second = await new ServeProcess(
        ['record', '--port', '0', '--upstream', upstream.url, '--out', out, '--mode', 'once'],
        { cwd: tmp.path },
      ).ready();
      expect(second.stdout.join('\n')).toMatch(
        /mode: +once: replaying the recording; a request it does not hold is refused/,
      );
      await second.stop();
      const refused = new ServeProcess(
        ['record', '--port', '0', '--upstream', upstream.url, '--out', out, '--mode', 'once', '--append'],
        { cwd: tmp.path },
      );
      expect((await refused.exited).code).toBe(1);
      expect(refused.stderr.filter(Boolean)[0]).toBe(
        'csp-mock: --append goes with --mode all; --mode once keeps the recording already',
      );
    } finally {
      await upstream.close();
    }
  });
});
