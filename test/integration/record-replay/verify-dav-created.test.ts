// verify --seed auto: objects a session creates over WebDAV (and then reads over /v2) are the session's, not the seed's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording, type StartOptions } from '../../../src/index.js';
import { fetchAs } from '../../helpers/cli.js';
import { useTempDir } from './support.js';

/** The id of the child named `name` in a /v2 listing. */
function idIn(listing: string, name: string): string {
  const item = new RegExp(
    `xlink:href="[^"]*/v2/(?:containers|files)/([^"/]+)"[^>]*>\\s*<(?:container|file)>\\s*<name>${name}</name>`,
  ).exec(listing);
  expect(item, `${name} in the listing`).not.toBeNull();
  return item![1]!;
}

describe('verify --seed auto with objects created over WebDAV', () => {
  const tmp = useTempDir('verify-dav');

  /** Records a session that makes Reports/2026/q1.txt over /dav, renames it over /dav, and reads it all over /v2. */
  async function recordDavSession(upstreamOptions: StartOptions): Promise<string> {
    const upstream = await startMock(upstreamOptions);
    const out = join(tmp.path, 'dav-session.jsonl');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    const at = (path: string, init: RequestInit = {}) => fetchAs(`${recorder.url}${path}`, init);
    /** A listing with each child's fields (names), as a client finding things by name asks for it. */
    const list = async (id: string) =>
      (await at(`/v2/containers/${id}/contents`, { headers: { 'X-Cloud-Depth': '1' } })).text();
    try {
      expect((await at('/dav/Reports', { method: 'MKCOL' })).status).toBe(201);
      expect((await at('/dav/Reports/2026', { method: 'MKCOL' })).status).toBe(201);
      expect((await at('/dav/Reports/2026/q1.txt', { method: 'PUT', body: 'first quarter' })).status).toBe(201);
      expect((await at('/dav/Reports/2026/draft.txt', { method: 'PUT', body: 'draft' })).status).toBe(201);
      const moved = await at('/dav/Reports/2026/draft.txt', {
        method: 'MOVE',
        headers: { Destination: `${recorder.url}/dav/Reports/final.txt` },
      });
      expect(moved.status).toBe(201);
      const entry = await (await at('/v2')).text();
      const root = /rootContainer[^>]*xlink:href="[^"]*\/v2\/containers\/([^"]+)"/.exec(entry)![1]!;
      const reports = idIn(await list(root), 'Reports');
      const reportsListing = await list(reports);
      const year = idIn(reportsListing, '2026');
      const final = idIn(reportsListing, 'final.txt');
      const q1 = idIn(await list(year), 'q1.txt');
      expect(await (await at(`/v2/files/${q1}/content`)).text()).toBe('first quarter');
      expect(await (await at(`/v2/files/${final}/content`)).text()).toBe('draft');
      expect((await at(`/v2/files/${q1}`)).status).toBe(200);
    } finally {
      await recorder.close();
      await upstream.close();
    }
    return out;
  }

  it('a session on an empty account that creates its folders and files with MKCOL and PUT on /dav and reads them over /v2 starts from empty and verifies clean', async () => {
    const report = await verifyRecording(await readRecording(await recordDavSession({ seed: 'empty' })));
    expect(report.differing).toEqual([]);
    expect(report.seed).toBe('empty');
  });

  it('on an account that held data, the objects the session made over /dav are left out of the start state (MKCOL and PUT create again, not 405 or 204)', async () => {
    const report = await verifyRecording(
      await readRecording(
        await recordDavSession({
          scenario: { seed: { tree: [{ file: 'existing.txt', text: 'was there before the session' }] } },
        }),
      ),
    );
    expect(report.differing).toEqual([]);
    expect(report.seed).toBe('recording');
  });

  it('a MOVE whose Destination is an absolute URI on the recorded server verifies: rebased onto the emulator, not 502 "on another server"', async () => {
    const upstream = await startMock({ seed: 'empty' });
    const out = join(tmp.path, 'move.jsonl');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    try {
      expect((await fetchAs(`${recorder.url}/dav/a.txt`, { method: 'PUT', body: 'a' })).status).toBe(201);
      const moved = await fetchAs(`${recorder.url}/dav/a.txt`, {
        method: 'MOVE',
        headers: { Destination: `${recorder.url}/dav/b.txt` },
      });
      expect(moved.status).toBe(201);
    } finally {
      await recorder.close();
      await upstream.close();
    }
    const report = await verifyRecording(await readRecording(out));
    expect(report.differing).toEqual([]);
  });
});
