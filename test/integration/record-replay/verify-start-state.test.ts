// verify starts from the account the recording found, by default when the recording uses objects it did not create.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording } from '../../../src/index.js';
import { EXAMPLE_RECORDING, useTempDir } from './support.js';
import { fetchAs } from '../../helpers/cli.js';

describe('verify: the start state', () => {
  const tmp = useTempDir('verify-start');

  it('a recording of an account that already held data verifies from the recording itself (auto), not from empty', async () => {
    const upstream = await startMock();
    const out = join(tmp.path, 'existing.json');
    const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    try {
      // A client that reads the demo tree it did not create, then creates something of its own.
      const entry = await (await fetchAs(`${recorder.url}/v2`)).text();
      const root = /rootContainer[^>]*xlink:href="[^"]*\/v2\/containers\/([^"]+)"/.exec(entry)![1]!;
      const listing = await (await fetchAs(`${recorder.url}/v2/containers/${root}/contents`)).text();
      const file = /\/v2\/files\/([^"/]+)"/.exec(listing)![1]!;
      expect((await fetchAs(`${recorder.url}/v2/files/${file}`)).status).toBe(200);
      expect((await fetchAs(`${recorder.url}/v2/files/${file}/content`)).status).toBe(200);
      const created = await fetchAs(`${recorder.url}/v2/containers/${root}/contents`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.csp.container-info+xml' },
        body: '<container><name>new-one</name></container>',
      });
      expect(created.status).toBe(201);
    } finally {
      await recorder.close();
      await upstream.close();
    }
    const recording = await readRecording(out);
    const auto = await verifyRecording(recording);
    expect(auto.seed).toBe('recording');
    expect(auto.differing).toEqual([]);
    const empty = await verifyRecording(recording, { seed: 'empty' });
    expect(empty.differing.length).toBeGreaterThan(0);
  });

  it('a create whose Location holds a badly percent-encoded id (/v2/files/%E0) is reported as a difference, never a crash', async () => {
    const create = {
      id: 1,
      user: 'demo',
      request: { method: 'POST', path: '/v2/containers/ROOT/contents', query: [], headers: {}, body: Buffer.alloc(0) },
      response: { status: 201, headers: { location: '{{baseUrl}}/v2/files/%E0' }, body: Buffer.alloc(0) },
    };
    const report = await verifyRecording({ redacted: [], exchanges: [create] });
    expect(report.differing.map((d) => d.id)).toEqual([1]);
  });

  it('a recording that creates everything it uses starts from empty', async () => {
    const report = await verifyRecording(await readRecording(EXAMPLE_RECORDING));
    expect(report.seed).toBe('empty');
    expect(report.differing).toEqual([]);
  });
});
