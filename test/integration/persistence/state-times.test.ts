import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import type { StateData } from '../../../src/domain/model.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import { AUTH } from '../../helpers/cloud.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { dav } from '../dav/dav-helpers.js';

const CDMI = { 'X-CDMI-Specification-Version': '1.0.1', 'Content-Type': 'application/cdmi-queue' };
const QUEUE = JSON.stringify({
  metadata: { cdmi_queue_type: 'cdmi_notification_queue', cdmi_notification_events: ['cdmi_create_complete'] },
});
/** 9999-12-31T23:59:59Z, the clock's last second. */
const LAST_SECOND = 253402300799;

/** A time a hand-edited --data state holds that no ISO or HTTP date can write is refused at start, as a damaged node is. */
describe('a --data state with a time outside 1970..9999 is refused at start, naming the file, the node and the field', () => {
  const tmp = useTempDir('state-times');
  const dataFile = (): string => join(tmp.path, 'state.json');

  /** A state with demo's root, the file /f.txt and a queue holding one value, written by a clean stop. */
  async function made(): Promise<{ state: StateData & { logSeq: number }; fileId: string }> {
    const mock = await createApp({ seed: 'empty', data: dataFile() });
    await request(mock.app).put('/cdmi/demo/sync').auth(AUTH.user, AUTH.password).set(CDMI).send(QUEUE).expect(201);
    await dav(mock.app, 'PUT', '/dav/f.txt').send('x').expect(201);
    await mock.close();
    const state = JSON.parse(await readFile(dataFile(), 'utf8')) as StateData & { logSeq: number };
    const fileId = Object.values(state.nodes).find((n) => n.name === 'f.txt')!.id;
    return { state, fileId };
  }

  async function refusedWith(message: RegExp): Promise<void> {
    const before = await readFile(dataFile());
    const start = createApp({ seed: 'empty', data: dataFile() });
    await expect(start).rejects.toThrow(`state file ${dataFile()}`);
    await expect(start).rejects.toThrow(message);
    expect(await readFile(dataFile())).toEqual(before);
  }

  const nodeTimes: Array<[string, unknown]> = [
    ['modified', 1e20],
    ['modified', -1e20],
    ['modified', 'yesterday'],
    ['created', 1e20],
    ['accessed', -1],
    ['recycled', 1e20],
  ];
  for (const [field, value] of nodeTimes) {
    it(`a node's ${field} of ${JSON.stringify(value)} fails the start, naming the file, the node and ${field}`, async () => {
      const { state, fileId } = await made();
      (state.nodes[fileId] as unknown as Record<string, unknown>)[field] = value;
      await writeFile(dataFile(), JSON.stringify(state));
      await refusedWith(
        new RegExp(`node "${fileId}" has ${field} .*expected .*Unix seconds from 0 \\(1970\\) to ${LAST_SECOND}`),
      );
    });
  }

  it('a queue created at 1e20, or a queued event at -1, fails the start naming the queue and the field', async () => {
    const { state } = await made();
    state.queues!['demo/sync']!.created = 1e20;
    await writeFile(dataFile(), JSON.stringify(state));
    await refusedWith(/queue "demo\/sync" has created 100000000000000000000, expected Unix seconds/);
    state.queues!['demo/sync']!.created = 0;
    state.queues!['demo/sync']!.values[0]!.event.time = -1;
    await writeFile(dataFile(), JSON.stringify(state));
    await refusedWith(/queue "demo\/sync" values\[0\]\.event has time -1, expected Unix seconds/);
  });

  it('a log line that sets a modified time of 1e20 fails the start, naming the state, its log and the node', async () => {
    const { state, fileId } = await made();
    const record = { seq: state.logSeq + 1, nodes: [{ ...state.nodes[fileId]!, modified: 1e20 }] };
    await writeFile(logFileOf(dataFile()), `${JSON.stringify(record)}\n`);
    await expect(createApp({ seed: 'empty', data: dataFile() })).rejects.toThrow(
      new RegExp(`with its log .* is not a csp-mock state: node "${fileId}" has modified 100000000000000000000`),
    );
  });

  it('times at both ends of the range start, and PROPFIND and the HTML listing show them', async () => {
    const { state, fileId } = await made();
    Object.assign(state.nodes[fileId]!, { created: 0, modified: LAST_SECOND, accessed: LAST_SECOND });
    await writeFile(dataFile(), JSON.stringify(state));
    const mock = await createApp({ seed: 'empty', data: dataFile() });
    try {
      const listing = await dav(mock.app, 'PROPFIND', '/dav/').set('Depth', '1').expect(207);
      expect(listing.text).toContain('1970-01-01T00:00:00Z');
      expect(listing.text).toContain('Fri, 31 Dec 9999 23:59:59 GMT');
      const html = await dav(mock.app, 'GET', '/dav/').set('Accept', 'text/html').expect(200);
      expect(html.text).toContain('9999-12-31 23:59:59 UTC');
    } finally {
      await mock.close();
    }
  });
});
