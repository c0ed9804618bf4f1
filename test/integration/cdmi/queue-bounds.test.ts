import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import { AUTH } from '../../helpers/cloud.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { dav } from '../dav/dav-helpers.js';

const CDMI = { 'X-CDMI-Specification-Version': '1.0.1', 'Content-Type': 'application/cdmi-queue' };
const DOC = JSON.stringify({
  metadata: { cdmi_queue_type: 'cdmi_notification_queue', cdmi_notification_events: ['cdmi_create_complete'] },
});

describe('notification queues are bounded: their names, how many a user has', () => {
  const tmp = useTempDir('queue-bounds');

  it('a queue name holding "/" (q%2F..%2F..%2Falice) is refused with 400 naming the rule, and nothing is made', async () => {
    const mock = await createApp({ seed: 'empty' });
    try {
      for (const name of ['q%2F..%2F..%2Falice', 'a%2Fb', '..', 'q%0Aline']) {
        const res = await request(mock.app)
          .put(`/cdmi/demo/${name}`)
          .auth(AUTH.user, AUTH.password)
          .set(CDMI)
          .send(DOC);
        expect(res.status, name).toBe(400);
        expect(res.text).toMatch(/a queue name is one path segment: 1 to 255 characters, no "\/"/);
      }
      const listed = await request(mock.app).get('/cdmi/demo').auth(AUTH.user, AUTH.password).expect(200);
      expect((JSON.parse(listed.text) as { children: string[] }).children).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('a user may have 16 queues: the 17th is refused with 409, and one write adds at most 16 events to the log', async () => {
    const data = join(tmp.path, 'state.json');
    const mock = await createApp({ seed: 'empty', data });
    try {
      const put = (name: string) =>
        request(mock.app).put(`/cdmi/demo/${name}`).auth(AUTH.user, AUTH.password).set(CDMI).send(DOC);
      for (let i = 0; i < 16; i++) await put(`device-${i}`).expect(201);
      const refused = await put('device-16').expect(409);
      expect(refused.text).toMatch(
        /user "demo" has 16 notification queues, the most one user may have: delete one first/,
      );
      // The same queue again is still fine: nothing new is made.
      await put('device-0').expect(204);

      const before = (await stat(logFileOf(data))).size;
      await dav(mock.app, 'MKCOL', '/dav/one-folder').expect(201);
      const perWrite = (await stat(logFileOf(data))).size - before;
      // The folder's record, its parent's, and one event in each of the 16 queues: a few KiB, not hundreds.
      expect(perWrite).toBeLessThan(16 * 1024);

      await request(mock.app).delete('/cdmi/demo/device-3').auth(AUTH.user, AUTH.password).set(CDMI).expect(204);
      await put('device-16').expect(201);
    } finally {
      await mock.close();
    }
  });

  it('queueLimit (--queue-limit) takes 1 to 100,000 values a queue', async () => {
    await expect(createApp({ seed: 'empty', queueLimit: 100_001 })).rejects.toThrow(
      'queueLimit must be a whole number from 1 to 100000, got 100001',
    );
  });
});
