import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp, type MockApp, type MockOptions } from '../../../src/index.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import { AUTH } from '../../helpers/cloud.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { dav } from '../dav/dav-helpers.js';

const CDMI = {
  'X-CDMI-Specification-Version': '1.0.1',
  'Content-Type': 'application/cdmi-queue',
  Host: '127.0.0.1:8080',
};
const Q = '/cdmi/demo/sync';
const DOC = JSON.stringify({
  metadata: { cdmi_queue_type: 'cdmi_notification_queue', cdmi_notification_events: ['cdmi_create_complete'] },
});

const cdmi = (mock: MockApp, method: 'get' | 'put' | 'delete', path: string) =>
  request(mock.app)[method](path).auth(AUTH.user, AUTH.password).set(CDMI);
const range = async (mock: MockApp): Promise<string> =>
  (JSON.parse((await cdmi(mock, 'get', `${Q}?queueValues`).expect(200)).text) as { queueValues: string }).queueValues;
const names = async (mock: MockApp): Promise<string[]> =>
  (JSON.parse((await cdmi(mock, 'get', `${Q}?values:100`).expect(200)).text) as { value: string[] }).value.map(
    (v) => (JSON.parse(v) as { objectName: string }).objectName,
  );

describe('notification queues are state: persisted with --data, reset with the store, bounded, shown', () => {
  const tmp = useTempDir('queues');
  const open = (options: MockOptions = {}) =>
    createApp({ seed: 'empty', data: join(tmp.path, 'state.json'), ...options });

  it('a queue, its values and what was acknowledged survive a restart (through the log, then a snapshot)', async () => {
    const first = await open();
    await cdmi(first, 'put', Q).send(DOC).expect(201);
    for (const name of ['a', 'b', 'c']) await dav(first.app, 'MKCOL', `/dav/${name}`).expect(201);
    await cdmi(first, 'delete', `${Q}?values:1`).expect(204);
    // Killed rather than closed would leave only the log; the log alone must hold the queue too.
    const logged = await readDurableState(join(tmp.path, 'state.json'));
    expect(Object.values(logged!.state.queues ?? {}).map((q) => q.values.map((v) => v.event.name))).toEqual([
      ['b', 'c'],
    ]);
    await first.close();

    const second = await open();
    expect(await range(second)).toBe('1-2');
    expect(await names(second)).toEqual(['b', 'c']);
    await dav(second.app, 'MKCOL', '/dav/d').expect(201);
    expect(await range(second)).toBe('1-3');
    await second.close();
    const third = await open();
    expect(await names(third)).toEqual(['b', 'c', 'd']);
    await third.close();
  });

  it('a queue nobody reads keeps at most queueLimit values: the oldest go, the range moves, the queue counts them', async () => {
    const mock = await open({ queueLimit: 2 });
    try {
      await cdmi(mock, 'put', Q).send(DOC).expect(201);
      for (const name of ['a', 'b', 'c', 'd', 'e']) await dav(mock.app, 'MKCOL', `/dav/${name}`).expect(201);
      expect(await range(mock)).toBe('3-4');
      expect(await names(mock)).toEqual(['d', 'e']);
      const whole = JSON.parse((await cdmi(mock, 'get', Q).expect(200)).text) as { metadata: Record<string, unknown> };
      expect(whole.metadata).toMatchObject({ csp_mock_values_limit: 2, csp_mock_values_dropped: 3 });
    } finally {
      await mock.close();
    }
  });

  it('an admin reset drops the queues with the rest of the state; /__admin/state and the inspector show each queue', async () => {
    const mock = await open();
    try {
      await cdmi(mock, 'put', Q).send(DOC).expect(201);
      await dav(mock.app, 'MKCOL', '/dav/a').expect(201);
      const state = await request(mock.app).get('/__admin/state').set('Host', '127.0.0.1:8080').expect(200);
      expect(JSON.parse(state.text).users.demo.queues).toEqual([
        { name: 'sync', queueValues: '0-0', values: 1, dropped: 0, limit: 10000, events: ['cdmi_create_complete'] },
      ]);
      const inspected = await request(mock.app)
        .get('/__admin/inspector/users')
        .set('Host', '127.0.0.1:8080')
        .expect(200);
      expect(JSON.parse(inspected.text).users[0].queues).toMatchObject([
        { name: 'sync', queueValues: '0-0', values: 1 },
      ]);
      await request(mock.app).post('/__admin/reset').set('Host', '127.0.0.1:8080').expect(204);
      await cdmi(mock, 'get', `${Q}?queueValues`).expect(404);
    } finally {
      await mock.close();
    }
  });
});
