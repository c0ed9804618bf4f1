import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRecording, startMock, verifyRecording, type RunningMock } from '../../../src/index.js';
import { basic, useTempDir } from '../record-replay/support.js';

const AUTHZ = { Authorization: basic('demo', 'demo') };
const CDMI = { ...AUTHZ, 'X-CDMI-Specification-Version': '1.0.1', 'Content-Type': 'application/cdmi-queue' };
const DOC = JSON.stringify({
  metadata: {
    cdmi_queue_type: 'cdmi_notification_queue',
    cdmi_notification_events: ['cdmi_create_complete', 'cdmi_delete'],
    cdmi_scope_specification: [{ parentURI: 'starts /cdmi/demo' }],
  },
});

/** The client's CDMI calls and the change they report, against `base`; each answer as status and body. */
async function session(base: string): Promise<Array<{ status: number; body: string }>> {
  const steps: Array<[string, string, Record<string, string>, string?]> = [
    ['GET', '/cdmi/demo', CDMI],
    ['GET', '/cdmi/demo/mac-demo?queueValues', CDMI],
    ['PUT', '/cdmi/demo/mac-demo', CDMI, DOC],
    ['MKCOL', '/dav/Docs', AUTHZ],
    ['GET', '/cdmi/demo/mac-demo?queueValues', CDMI],
    ['GET', '/cdmi/demo/mac-demo?values:1', CDMI],
    ['DELETE', '/cdmi/demo/mac-demo?values:1', CDMI],
    ['GET', '/cdmi/demo/mac-demo?queueValues', CDMI],
  ];
  const out: Array<{ status: number; body: string }> = [];
  for (const [method, path, headers, body] of steps) {
    const res = await fetch(`${base}${path}`, { method, headers, body });
    out.push({ status: res.status, body: await res.text() });
  }
  return out;
}

describe('record, replay and verify carry CDMI exchanges (JSON bodies) like any other', () => {
  const tmp = useTempDir('cdmi-rec');
  let upstream: RunningMock;
  let recorder: RunningMock;
  let out: string;
  beforeEach(async () => {
    out = `${tmp.path}/cdmi.json`;
    upstream = await startMock({ seed: 'empty' });
    recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
  });
  afterEach(async () => {
    await recorder.close();
    await upstream.close();
  });

  it('records the session, replays the same answers, and verify finds the emulator answering alike', async () => {
    const recorded = await session(recorder.url);
    expect(recorded.map((r) => r.status)).toEqual([200, 404, 201, 201, 200, 200, 204, 200]);
    expect(JSON.parse(recorded[4]!.body)).toEqual({ queueValues: '0-0' });
    await recorder.close();

    const recording = await readRecording(out);
    expect(recording.exchanges.map((e) => `${e.request.method} ${e.request.path}`)).toContain(
      'PUT /cdmi/demo/mac-demo',
    );

    const replay = await startMock({ mode: { kind: 'replay', recording: out } });
    try {
      expect(await session(replay.url)).toEqual(recorded);
    } finally {
      await replay.close();
    }

    const report = await verifyRecording(recording);
    expect(report.text).toContain('8 match, 0 differ');
  });
});
