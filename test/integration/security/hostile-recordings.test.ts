import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApp,
  createReplayHandler,
  readRecording,
  readRecordingDocument,
  RecordingWriter,
  verifyRecording,
  type MockApp,
  type Recording,
  type StoredExchange,
} from '../../../src/index.js';
import { MAX_EXCHANGES } from '../../../src/recording/recording-io.js';
import { CLI } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

let app: MockApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  delete process.env['CSP_MOCK_MAX_FILE_BYTES'];
});
const tmp = useTempDir('hostile-recordings');

const HEADER = { format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] };
const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: Error) => e.message,
  );

function exchange(
  id: number,
  request: Partial<StoredExchange['request']>,
  response: Partial<StoredExchange['response']> = {},
): StoredExchange {
  return {
    id,
    user: 'demo',
    request: { method: 'GET', path: '/v2', query: [], headers: {}, ...request },
    response: { status: 200, headers: {}, ...response },
  };
}

async function recordingFile(name: string, exchanges: StoredExchange[]): Promise<string> {
  const file = join(tmp.path, name);
  await writeFile(file, [HEADER, ...exchanges].map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

const sidecarBody = (file: string, bytes: number, hash: string) => ({ body: { file, bytes, sha256: hash } });

describe('hostile recordings cannot read outside their folder or exhaust the machine (issue 10, findings 1 and 8)', () => {
  it('a recording whose first line is null is refused with a message naming the file, not a TypeError', async () => {
    const file = join(tmp.path, 'null-first.jsonl');
    await writeFile(file, 'null\n');
    const message = await failure(readRecording(file));
    expect(message).toContain(file);
    expect(message).not.toContain('Cannot read properties');
  });

  it('refuses a sidecar "../../../../dev/zero" before reading a byte of it', async () => {
    const file = await recordingFile('zero.json', [
      exchange(1, {}, sidecarBody('../../../../dev/zero', 1_500_000_000, sha(''))),
    ]);
    const message = await failure(readRecording(file));
    expect(message).toContain(`${file}: exchange 1 response: sidecar "../../../../dev/zero"`);
    expect(message).toMatch(/over the limit|is outside/);
    expect(await failure(createApp({ mode: { kind: 'replay', recording: file } }))).toContain(
      'sidecar "../../../../dev/zero"',
    );
  });

  it('refuses a sidecar outside <name>.bodies/ even when its sha256 matches ("../outside.bin")', async () => {
    await writeFile(join(tmp.path, 'outside.bin'), 'outside bytes');
    const file = await recordingFile('session.json', [
      exchange(1, {}, sidecarBody('../outside.bin', 13, sha('outside bytes'))),
    ]);
    expect(await failure(readRecording(file))).toContain('sidecar "../outside.bin" is outside');
    // A sidecar is named inside beside.bodies/: the file of that name beside the recording is never read.
    const beside = await recordingFile('beside.json', [
      exchange(1, {}, sidecarBody('outside.bin', 13, sha('outside bytes'))),
    ]);
    expect(await failure(readRecording(beside))).toContain('sidecar "outside.bin" no such file');
  });

  it('refuses a symlink in <name>.bodies/ that leads out, and a sidecar whose size differs from the recording', async () => {
    await mkdir(join(tmp.path, 'linked.bodies'));
    await symlink('/etc/passwd', join(tmp.path, 'linked.bodies', '1-response.bin'));
    const linked = await recordingFile('linked.json', [
      exchange(1, {}, sidecarBody('linked.bodies/1-response.bin', 10, sha('x'))),
    ]);
    expect(await failure(readRecording(linked))).toContain('is outside');
    await mkdir(join(tmp.path, 'sized.bodies'));
    await writeFile(join(tmp.path, 'sized.bodies', '1-response.bin'), Buffer.alloc(100));
    const sized = await recordingFile('sized.json', [
      exchange(1, {}, sidecarBody('sized.bodies/1-response.bin', 10, sha('x'))),
    ]);
    expect(await failure(readRecording(sized))).toContain('is 100 bytes, the recording says 10');
    // Another recording's sidecar folder is never read: an old-style "<name>.bodies/" segment names this one's own folder.
    const other = await recordingFile('other.json', [
      exchange(1, {}, sidecarBody('sized.bodies/1-response.bin', 100, sha(Buffer.alloc(100)))),
    ]);
    expect(await failure(readRecording(other))).toContain('no such file');
    expect(
      await failure(
        readRecording(
          await recordingFile('other2.json', [
            exchange(1, {}, sidecarBody('../sized.bodies/1-response.bin', 100, sha(Buffer.alloc(100)))),
          ]),
        ),
      ),
    ).toContain('is outside');
    const own = await recordingFile('sized.json', [
      exchange(1, {}, sidecarBody('sized.bodies/1-response.bin', 100, sha(Buffer.alloc(100)))),
    ]);
    expect((await readRecording(own)).exchanges[0]!.response.body).toEqual(Buffer.alloc(100));
  });

  it('refuses a malformed or oversized recording with a message naming the file and the problem', async () => {
    const torn = join(tmp.path, 'malformed.json');
    await writeFile(
      torn,
      `${JSON.stringify(HEADER)}\n${JSON.stringify(exchange(1, {}))}\n{"id": 2, "request": \n${JSON.stringify(exchange(3, {}))}\n`,
    );
    expect(await failure(readRecording(torn))).toBe(`${torn}: line 3: not valid JSON`);
    const injected = await recordingFile('injected.json', [
      exchange(1, { path: '/v2 HTTP/1.1\r\nHost: x\r\n\r\nPOST /__admin/reset' }),
    ]);
    expect(await failure(readRecording(injected))).toContain(
      `${injected}: line 2: request.path: must be a path starting with / without spaces or control characters`,
    );
    const foreign = join(tmp.path, 'foreign.json');
    await writeFile(foreign, '{"hello": "world"}');
    expect(await failure(readRecording(foreign))).toContain(`${foreign}: not a csp-mock recording`);
    const big = await recordingFile('big.json', [exchange(1, {}, { body: { text: 'x'.repeat(5000) } })]);
    process.env['CSP_MOCK_MAX_FILE_BYTES'] = '2000';
    expect(await failure(readRecording(big))).toMatch(new RegExp(`^${big}: is \\d+ bytes, over the limit of 2000`));
    // A recorder killed mid-line leaves a torn last line: that exchange is lost, the rest is read.
    delete process.env['CSP_MOCK_MAX_FILE_BYTES'];
    const killed = join(tmp.path, 'killed.json');
    await writeFile(killed, `${JSON.stringify(HEADER)}\n${JSON.stringify(exchange(1, {}))}\n{"id": 2, "requ`);
    expect((await readRecording(killed)).exchanges.map((e) => e.id)).toEqual([1]);
  });

  it('verify of a recording whose first exchange is PUT /__admin/scenario (fixture /etc/passwd) never sends it, nor prints the file', async () => {
    const scenario = JSON.stringify({ seed: { tree: [{ file: 'loot', fixture: '/etc/passwd' }] } });
    const file = await recordingFile('admin.json', [
      exchange(
        1,
        {
          method: 'PUT',
          path: '/__admin/scenario',
          headers: { 'content-type': 'application/json' },
          body: { text: scenario },
        },
        { status: 200 },
      ),
      exchange(2, { path: '/dav/loot', headers: { range: 'bytes=0-99' } }, { status: 206 }),
      exchange(3, { path: '/v2/../__admin/state' }, { status: 200 }),
      exchange(4, { path: '/dav/%2e%2e/__admin/state' }, { status: 200 }),
    ]);
    const report = await verifyRecording(await readRecording(file));
    expect(report.text).not.toMatch(/root:|daemon:/);
    expect(report.skipped.map((x) => x.id)).toEqual([1, 3, 4]);
    expect(report.skipped[0]!.reason).toContain('not a service path (/v2, /dav, /cdmi)');
    expect(report.differing.map((d) => d.id)).toEqual([2]);
    expect(report.differing[0]!.differences.join('\n')).toContain('status: expected 206, got 404');
    const cli = await promisify(execFile)(process.execPath, [CLI, 'verify', '--recording', file]).catch(
      (e: { stdout: string; code: number }) => e,
    );
    expect(cli.stdout).toContain('  exchange 1: PUT /__admin/scenario');
    expect(cli.stdout).toContain('verify: 4 exchange(s), 0 match, 1 differ, 3 skipped');
    expect(cli.stdout).not.toMatch(/root:|daemon:/);
  });

  it('a replay miss against 3,000 exchanges names the nearest ones in one pass (the near-miss search is linear)', async () => {
    const exchanges = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      user: 'demo',
      request: {
        method: 'GET',
        path: `/v2/files/f${i}/content`,
        query: [] as Array<[string, string]>,
        headers: { range: `bytes=0-${i}` },
        body: Buffer.alloc(0),
      },
      response: { status: 200, headers: {}, body: Buffer.from(`body ${i}`) },
    }));
    const recording: Recording = { redacted: [], exchanges };
    app = await createApp({ mode: { kind: 'replay', recording } });
    // 30 misses: with the quadratic search (11.7 s each) this would take six minutes.
    for (let i = 0; i < 30; i++) {
      const res = await request(app.app)
        .get('/v2/files/f1500/content')
        .set('Range', 'bytes=0-7')
        .auth('demo', 'demo')
        .expect(404);
      expect(res.text).toContain('Nearest recorded requests (of 3000):');
      expect(res.text).toContain('exchange 1501: GET /v2/files/f1500/content -> 200');
    }
    const hit = await request(app.app)
      .get('/v2/files/f2999/content')
      .set('Range', 'bytes=0-2999')
      .auth('demo', 'demo')
      .expect(200);
    expect(hit.text).toBe('body 2999');
    expect(createReplayHandler(recording).recording.exchanges).toHaveLength(3000);
  });

  const tiny = (id: number): string =>
    `{"id":${id},"request":{"method":"GET","path":"/v2/f${id}"},"response":{"status":200}}\n`;
  const tinyRecording = (count: number): string =>
    JSON.stringify(HEADER) + '\n' + Array.from({ length: count }, (_, i) => tiny(i + 1)).join('');

  it('a recording of one exchange more than the limit (100,001 tiny ones) is refused by every reader in one line naming the file and the limit', async () => {
    expect(MAX_EXCHANGES).toBe(100_000);
    const over = join(tmp.path, 'over.jsonl');
    await writeFile(over, tinyRecording(MAX_EXCHANGES + 1));
    const expected = `${over}: line ${MAX_EXCHANGES + 2}: more than 100,000 exchanges, the most a recording may hold (split it into several recordings)`;
    expect(await failure(readRecordingDocument(over))).toBe(expected);
    expect(await failure(createApp({ mode: { kind: 'replay', recording: over } }))).toBe(expected);
    // A version 1 document is held by the same limit.
    const document = join(tmp.path, 'over-document.json');
    const parsed = Array.from({ length: MAX_EXCHANGES + 1 }, (_, i) => JSON.parse(tiny(i + 1)) as unknown);
    await writeFile(document, JSON.stringify({ ...HEADER, version: 1, exchanges: parsed }));
    expect(await failure(readRecordingDocument(document))).toBe(
      `${document}: "exchanges": more than 100,000 exchanges, the most a recording may hold (split it into several recordings)`,
    );
  });

  it('a recording of exactly the limit (100,000 exchanges) is read, and the recorder stops there rather than write one it could not read back', async () => {
    const full = join(tmp.path, 'full.jsonl');
    await writeFile(full, tinyRecording(MAX_EXCHANGES));
    const read = await readRecordingDocument(full);
    expect(read.exchanges).toHaveLength(MAX_EXCHANGES);
    expect(read.exchanges.at(-1)!.request.path).toBe(`/v2/f${MAX_EXCHANGES}`);
    const log: string[] = [];
    const writer = await RecordingWriter.open(full, [], true, (line) => log.push(line));
    await writer.add({ ...read.exchanges[0]!, id: writer.reserveId() });
    expect(log).toEqual([
      `record: recording stopped: ${full} holds 100,000 exchanges, the most a recording may hold; 0 exchange(s) are in ${full}; the proxy keeps answering but records nothing more`,
    ]);
    expect((await readRecordingDocument(full)).exchanges).toHaveLength(MAX_EXCHANGES);
  });
});
