// Recording files: JSON lines named .jsonl (earlier .json ones still read), sidecars named relative
// to the recording's own bodies folder, so the pair can be renamed or copied.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording, type RunningMock } from '../../../src/index.js';
import { locateRecording } from '../../../src/replay/scenario-replay.js';
import { basic, readJson, storedSidecar, useTempDir } from './support.js';

const HEADER = { format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] };
const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: Error) => e.message,
  );

describe('recording files: .jsonl, and sidecars relative to their own bodies folder', () => {
  const tmp = useTempDir();
  const open: RunningMock[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });

  /** Records a session with an upload and a download, both in sidecars; returns the recording's path. */
  async function recordSession(out: string): Promise<Buffer> {
    const upstream = await startMock({ seed: 'empty', users: { alice: 'pw' } });
    open.push(upstream);
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out, sidecarThreshold: 64 } });
    const content = Buffer.from('sidecar body '.repeat(200));
    const auth = { Authorization: basic('alice', 'pw') };
    expect((await fetch(`${recorder.url}/dav/notes.txt`, { method: 'PUT', headers: auth, body: content })).status).toBe(
      201,
    );
    expect(Buffer.from(await (await fetch(`${recorder.url}/dav/notes.txt`, { headers: auth })).arrayBuffer())).toEqual(
      content,
    );
    await recorder.close();
    return content;
  }

  it('renaming a recorded pair (my-session.{jsonl,bodies} -> login-flow.*) keeps replay and verify working', async () => {
    const out = join(tmp.path, 'my-session.jsonl');
    const content = await recordSession(out);
    const doc = await readJson(out);
    const refs = doc.exchanges.flatMap((e) => [e.request.body, e.response.body]).map(storedSidecar);
    // The references name files in the bodies folder, not the folder itself.
    expect(refs.filter(Boolean).map((r) => r!.file)).toEqual(['1-request.bin', '2-response.bin']);
    expect((await readdir(join(tmp.path, 'my-session.bodies'))).sort()).toEqual(['1-request.bin', '2-response.bin']);

    await rename(out, join(tmp.path, 'login-flow.jsonl'));
    await rename(join(tmp.path, 'my-session.bodies'), join(tmp.path, 'login-flow.bodies'));
    const renamed = join(tmp.path, 'login-flow.jsonl');
    const recording = await readRecording(renamed);
    expect(recording.exchanges.at(-1)!.response.body).toEqual(content);
    const report = await verifyRecording(recording);
    expect(report.text).toContain('2 exchange(s), 2 match, 0 differ');

    const replay = await startMock({ mode: { kind: 'replay', recording: renamed } });
    open.push(replay);
    const got = await fetch(`${replay.url}/dav/notes.txt`, { headers: { Authorization: basic('alice', 'pw') } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(content);
  });

  it('an earlier recording whose sidecars name its old folder (my-session.bodies/...) still loads after a rename', async () => {
    const body = Buffer.from('legacy sidecar bytes');
    await mkdir(join(tmp.path, 'login-flow.bodies'));
    await writeFile(join(tmp.path, 'login-flow.bodies', '10-response.bin'), body);
    const exchange = {
      id: 10,
      request: { method: 'GET', path: '/v2/legacy', query: [], headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
        body: { file: 'my-session.bodies/10-response.bin', bytes: body.length, sha256: sha(body) },
      },
    };
    // The older layout: one JSON document, named .json.
    const file = join(tmp.path, 'login-flow.json');
    await writeFile(file, JSON.stringify({ ...HEADER, version: 1, exchanges: [exchange] }, null, 2));
    expect((await readRecording(file)).exchanges[0]!.response.body).toEqual(body);
  });

  it('a sidecar reference that leaves the bodies folder is still refused, with or without an old folder segment', async () => {
    await writeFile(join(tmp.path, 'outside.bin'), 'outside bytes');
    await mkdir(join(tmp.path, 'other.bodies'));
    await writeFile(join(tmp.path, 'other.bodies', '1-response.bin'), 'other bytes');
    for (const reference of [
      '../outside.bin',
      'session.bodies/../../outside.bin',
      'x.bodies/../../other.bodies/1-response.bin',
      '../other.bodies/1-response.bin',
      '/etc/passwd',
    ]) {
      const file = join(tmp.path, 'session.jsonl');
      const bytes = reference.includes('other') ? 11 : 13;
      const exchange = {
        id: 1,
        request: { method: 'GET', path: '/v2', query: [], headers: {} },
        response: {
          status: 200,
          headers: {},
          body: {
            file: reference,
            bytes,
            sha256: sha(reference.includes('other') ? 'other bytes' : 'outside bytes'),
          },
        },
      };
      await writeFile(file, `${JSON.stringify(HEADER)}\n${JSON.stringify(exchange)}\n`);
      const message = await failure(readRecording(file));
      expect(message, reference).toMatch(/is outside|no such file/);
      expect(message, reference).toContain(`sidecar "${reference}"`);
    }
    // Another recording's folder named in the old style is read from this recording's own folder, never the other's.
    const file = join(tmp.path, 'mine.jsonl');
    const exchange = {
      id: 1,
      request: { method: 'GET', path: '/v2', query: [], headers: {} },
      response: {
        status: 200,
        headers: {},
        body: { file: 'other.bodies/1-response.bin', bytes: 11, sha256: sha('other bytes') },
      },
    };
    await writeFile(file, `${JSON.stringify(HEADER)}\n${JSON.stringify(exchange)}\n`);
    expect(await failure(readRecording(file))).toContain('no such file');
  });

  it('recordings are .jsonl; a bare name or a path without extension finds the .jsonl, else the earlier .json', async () => {
    await mkdir(join(tmp.path, 'recordings'));
    const line = `${JSON.stringify(HEADER)}\n`;
    await writeFile(join(tmp.path, 'recordings', 'old.json'), line);
    await writeFile(join(tmp.path, 'recordings', 'both.json'), line);
    await writeFile(join(tmp.path, 'recordings', 'both.jsonl'), line);
    expect(locateRecording('old', tmp.path)).toBe(join(tmp.path, 'recordings', 'old.json'));
    expect(locateRecording('both', tmp.path)).toBe(join(tmp.path, 'recordings', 'both.jsonl'));
    expect(locateRecording('recordings/both', tmp.path)).toBe(join(tmp.path, 'recordings', 'both.jsonl'));
    expect(locateRecording('recordings/old', tmp.path)).toBe(join(tmp.path, 'recordings', 'old.json'));
    expect(locateRecording('example-session', tmp.path)).toMatch(/recordings[/\\]example-session\.jsonl$/);
    // The shipped recording is JSON lines: every line parses on its own (what jq and editors expect of .jsonl).
    const shipped = await readFile(locateRecording('example-session', tmp.path), 'utf8');
    for (const l of shipped.trimEnd().split('\n')) expect(() => JSON.parse(l) as unknown).not.toThrow();
  });
});
