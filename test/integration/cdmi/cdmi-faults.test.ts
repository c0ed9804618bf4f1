import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AUTH, useCloud } from '../../helpers/cloud.js';
import { MezeoSyncClient } from './mezeo-sync-client.js';

describe('scenario faults on the CDMI routes', () => {
  const cloud = useCloud({
    seed: 'empty',
    scenario: {
      faults: [
        {
          name: 'queue-busy',
          match: { method: 'GET', path: '/cdmi/*/*' },
          respond: { status: 503, headers: { 'Retry-After': '1' }, body: 'queue busy' },
          after: 1,
          times: 1,
        },
      ],
    },
  });

  it('a fault rule answers a queue read like any other route, then the queue answers again', async () => {
    const client = new MezeoSyncClient(cloud.client.app, AUTH.user, AUTH.password, '7e22b40');
    expect(await client.signIn()).not.toBeNull();
    // The login's length read (404: no queue yet) is the first match, let through; the next is the fault.
    await client.checkAndCreateNotificationQueue();
    expect(await client.nqGetLength()).toEqual({ status: 503, length: 0 });
    expect(await client.nqGetLength()).toEqual({ status: -3, length: 0 });
    const journal = await request(cloud.client.app).get('/__admin/requests').set('Host', '127.0.0.1:8080').expect(200);
    const entries = (JSON.parse(journal.text) as { requests: Array<{ path: string; status: number; fault?: string }> })
      .requests;
    expect(entries.filter((e) => e.path.startsWith('/cdmi/')).map((e) => e.status)).toEqual([200, 404, 201, 503, 200]);
  });
});
