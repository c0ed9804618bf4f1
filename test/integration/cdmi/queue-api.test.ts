import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AUTH, useCloud } from '../../helpers/cloud.js';
import { dav } from '../dav/dav-helpers.js';

const CDMI = {
  'X-CDMI-Specification-Version': '1.0.1',
  Accept: 'application/cdmi-queue',
  'Content-Type': 'application/cdmi-queue',
  Host: '127.0.0.1:8080',
};
const Q = '/cdmi/demo/q1';

/** A notification queue document; `extra` goes into its metadata. */
const doc = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    metadata: {
      cdmi_queue_type: 'cdmi_notification_queue',
      cdmi_notification_events: ['cdmi_create_complete', 'cdmi_modify_complete', 'cdmi_delete', 'cdmi_rename'],
      ...extra,
    },
  });

describe('CDMI notification queue resource', () => {
  const cloud = useCloud();
  const cdmi = (method: 'get' | 'put' | 'delete', path: string) =>
    request(cloud.client.app)[method](path).auth(AUTH.user, AUTH.password).set(CDMI);
  const values = async (path = Q): Promise<Array<Record<string, unknown>>> =>
    (JSON.parse((await cdmi('get', `${path}?values:100`).expect(200)).text) as { value: string[] }).value.map(
      (v) => JSON.parse(v) as Record<string, unknown>,
    );

  it('creates with 201 and the queue object; reads it whole, by field, and its empty range', async () => {
    const created = await cdmi('put', Q).send(doc()).expect(201);
    expect(created.headers['content-type']).toMatch(/^application\/cdmi-queue/);
    expect(created.headers['x-cdmi-specification-version']).toBe('1.0.1');
    expect(JSON.parse(created.text)).toMatchObject({
      objectType: 'application/cdmi-queue',
      objectName: 'q1',
      parentURI: '/cdmi/demo/',
      queueValues: '',
      metadata: {
        cdmi_queue_type: 'cdmi_notification_queue',
        csp_mock_values_limit: 10000,
        csp_mock_values_dropped: 0,
      },
    });
    expect(JSON.parse((await cdmi('get', `${Q}?queueValues`).expect(200)).text)).toEqual({ queueValues: '' });
    const container = JSON.parse((await cdmi('get', '/cdmi/demo').expect(200)).text) as Record<string, unknown>;
    expect(container).toMatchObject({ parentURI: '/cdmi/', objectName: 'demo', children: ['q1'] });
  });

  it('numbers values from 0; values:n reads the oldest n without removing them; DELETE values:n removes them', async () => {
    await cdmi('put', Q).send(doc()).expect(201);
    for (const name of ['a', 'b', 'c']) await dav(cloud.client.app, 'MKCOL', `/dav/${name}`).expect(201);
    expect(JSON.parse((await cdmi('get', `${Q}?queueValues`).expect(200)).text)).toEqual({ queueValues: '0-2' });
    const two = JSON.parse((await cdmi('get', `${Q}?values:2`).expect(200)).text) as { value: string[] };
    expect(two.value.map((v) => (JSON.parse(v) as { objectName: string }).objectName)).toEqual(['a', 'b']);
    expect((await values()).length).toBe(3);
    await cdmi('delete', `${Q}?values:2`).expect(204);
    expect(JSON.parse((await cdmi('get', `${Q}?queueValues`).expect(200)).text)).toEqual({ queueValues: '2-2' });
    await cdmi('delete', `${Q}?values:5`).expect(204);
    expect(JSON.parse((await cdmi('get', `${Q}?queueValues;values:1`).expect(200)).text)).toEqual({
      queueValues: '',
      value: [],
    });
  });

  it('a missing queue is 404 for every operation; a deleted queue is missing', async () => {
    await cdmi('get', `${Q}?queueValues`).expect(404);
    await cdmi('get', `${Q}?values:1`).expect(404);
    await cdmi('delete', `${Q}?values:1`).expect(404);
    await cdmi('delete', Q).expect(404);
    await cdmi('put', Q).send(doc()).expect(201);
    await cdmi('delete', Q).expect(204);
    await cdmi('get', Q).expect(404);
  });

  it.each([
    ['an empty body', '', /empty/],
    ['no JSON', '{"metadata":', /not JSON/],
    ['no metadata', '{}', /no "metadata"/],
    ['a plain queue', JSON.stringify({ metadata: { cdmi_queue_type: 'fifo' } }), /only notification queues/],
    [
      'no event list',
      JSON.stringify({ metadata: { cdmi_queue_type: 'cdmi_notification_queue' } }),
      /cdmi_notification_events/,
    ],
    [
      'a scope on another field',
      doc({ cdmi_scope_specification: [{ objectName: 'starts a' }] }),
      /scope on "objectName"/,
    ],
    [
      'a scope operator not served',
      doc({ cdmi_scope_specification: [{ parentURI: '== /cdmi/demo/' }] }),
      /starts <parentURI prefix>/,
    ],
    [
      'a results specification that is not an object',
      doc({ cdmi_results_specification: [] }),
      /cdmi_results_specification/,
    ],
  ])(
    'a document with %s is 400 with a message saying what is wrong, and creates nothing',
    async (_what, body, message) => {
      const res = await cdmi('put', Q).send(body).expect(400);
      expect(res.text).toMatch(message);
      await cdmi('get', Q).expect(404);
    },
  );

  it('a document of another media type is 415; values:<n> with a bad n is 400', async () => {
    await cdmi('put', Q).set('Content-Type', 'text/plain').send(doc()).expect(415);
    await cdmi('put', Q).send(doc()).expect(201);
    const bad = await cdmi('get', `${Q}?values:x`).expect(400);
    expect(bad.text).toMatch(/whole number/);
  });

  it('creating it again with the same document changes nothing (204); with another, 409 and the queue stays', async () => {
    await cdmi('put', Q).send(doc()).expect(201);
    await dav(cloud.client.app, 'MKCOL', '/dav/a').expect(201);
    await cdmi('put', Q).send(doc()).expect(204);
    const other = await cdmi('put', Q)
      .send(doc({ cdmi_notification_events: ['cdmi_delete'] }))
      .expect(409);
    expect(other.text).toMatch(/delete it first/);
    expect((await values()).length).toBe(1);
  });

  it('takes only the events it names, inside its scope, with the fields its results specification names', async () => {
    await cdmi('put', Q)
      .send(
        doc({
          cdmi_notification_events: ['cdmi_create_complete'],
          cdmi_scope_specification: [{ parentURI: 'starts /cdmi/demo/Docs/' }],
          cdmi_results_specification: { cdmi_event: '', objectName: '', metadata: { mezeo_exported_path: '' } },
        }),
      )
      .expect(201);
    await dav(cloud.client.app, 'MKCOL', '/dav/Docs').expect(201);
    await dav(cloud.client.app, 'PUT', '/dav/Docs/in.txt').send('x').expect(201);
    await dav(cloud.client.app, 'PUT', '/dav/Docs/in.txt').send('y').expect(204);
    await dav(cloud.client.app, 'PUT', '/dav/out.txt').send('x').expect(201);
    expect(await values()).toEqual([
      { cdmi_event: 'cdmi_create_complete', objectName: 'in.txt', metadata: { mezeo_exported_path: 'Docs/in.txt' } },
    ]);
  });

  it("is the user's own: another user's changes do not reach it, and their queue address is 404", async () => {
    const two = await (
      await import('../../../src/index.js')
    ).createApp({
      seed: 'empty',
      users: { demo: 'demo', ann: 'pw' },
    });
    try {
      const as = (user: string, password: string, method: 'get' | 'put', path: string) =>
        request(two.app)[method](path).auth(user, password).set(CDMI);
      await as('demo', 'demo', 'put', Q).send(doc()).expect(201);
      await dav(two.app, 'MKCOL', '/dav/anns', { user: 'ann', password: 'pw' }).expect(201);
      expect(JSON.parse((await as('demo', 'demo', 'get', `${Q}?queueValues`).expect(200)).text)).toEqual({
        queueValues: '',
      });
      await as('ann', 'pw', 'get', `${Q}?queueValues`).expect(404);
    } finally {
      await two.close();
    }
  });
});
