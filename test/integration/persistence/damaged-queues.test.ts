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
const DOC = JSON.stringify({
  metadata: { cdmi_queue_type: 'cdmi_notification_queue', cdmi_notification_events: ['cdmi_create_complete'] },
});

/** A damaged queue record in a --data state is refused at start like a damaged node: the file and the field named. */
describe('a damaged notification queue in a --data state is refused at start', () => {
  const tmp = useTempDir('damaged-queues');
  const dataFile = (): string => join(tmp.path, 'state.json');

  /** A state with one queue holding one value, written by a clean stop. */
  async function made(): Promise<StateData> {
    const mock = await createApp({ seed: 'empty', data: dataFile() });
    await request(mock.app).put('/cdmi/demo/sync').auth(AUTH.user, AUTH.password).set(CDMI).send(DOC).expect(201);
    await dav(mock.app, 'MKCOL', '/dav/a').expect(201);
    await mock.close();
    return JSON.parse(await readFile(dataFile(), 'utf8')) as StateData;
  }

  const damaged: Array<[string, Record<string, unknown>, RegExp]> = [
    ['values: null', { values: null }, /queue "demo\/sync" has values null, expected a list/],
    ['events: null', { events: null }, /queue "demo\/sync" has events null, expected a list of strings/],
    ['scope: "/"', { scope: '/' }, /queue "demo\/sync" has scope "\/", expected null or a list of paths/],
    [
      'a value without its event',
      { values: [{ seq: 0 }] },
      /queue "demo\/sync" values\[0\]\.event is missing, expected an object/,
    ],
    ['limit: -1', { limit: -1 }, /queue "demo\/sync" has limit -1, expected a whole number/],
  ];
  for (const [what, change, message] of damaged) {
    it(`a queue record with ${what} fails the start, naming the file and the field; the file stays as it was`, async () => {
      const state = await made();
      Object.assign(state.queues!['demo/sync']!, change);
      await writeFile(dataFile(), JSON.stringify(state));
      const before = await readFile(dataFile());
      const start = createApp({ seed: 'empty', data: dataFile() });
      await expect(start).rejects.toThrow(`state file ${dataFile()} is not a csp-mock state`);
      await expect(start).rejects.toThrow(message);
      expect(await readFile(dataFile())).toEqual(before);
    });
  }

  it('a queue record damaged by a log line fails the start too, naming the state and its log', async () => {
    const { logSeq } = (await made()) as StateData & { logSeq: number };
    const record = {
      seq: logSeq + 1,
      queues: [{ key: 'demo/sync', put: { owner: 'demo', name: 'sync', values: null } }],
    };
    await writeFile(logFileOf(dataFile()), `${JSON.stringify(record)}\n`);
    await expect(createApp({ seed: 'empty', data: dataFile() })).rejects.toThrow(
      /with its log .* is not a csp-mock state: queue "demo\/sync" has no id/,
    );
  });
});
