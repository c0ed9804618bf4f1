import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import { CloudClient, readXml, useCloud } from '../../helpers/cloud.js';

describe('authentication (Authentication 1-3) and X-Client-Specification (Versioning 2)', () => {
  const cloud = useCloud({ seed: 'empty', users: { demo: 'demo', alice: 's3cret:with:colons' } });

  it('Authentication 1: no or wrong Basic credentials answer 401 with a WWW-Authenticate: Basic challenge', async () => {
    for (const auth of [undefined, ['demo', 'wrong'], ['nobody', 'demo']] as const) {
      let req = request(cloud.client.app).get('/v2');
      if (auth) req = req.auth(auth[0], auth[1]);
      const res = await req.expect(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm="/);
      expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    }
    await request(cloud.client.app).get('/v2').set('Authorization', 'Bearer abc').expect(401);
    await request(cloud.client.app).get('/v2').set('Authorization', 'Basic !!!').expect(401);
  });

  it('Authentication 3: WebDAV requests use the same credentials', async () => {
    await request(cloud.client.app).get('/dav/').expect(401);
    await request(cloud.client.app).get('/dav/').auth('alice', 's3cret:with:colons').expect(200);
  });

  it('each user has a separate tree: ids of one are 404 to another', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'private.txt', 'mine');
    const alice = request(cloud.client.app);
    const aliceRoot = readXml((await alice.get('/v2').auth('alice', 's3cret:with:colons').expect(200)).text).cloud
      .rootContainer['@_xlink:href'];
    expect(new URL(aliceRoot).pathname).not.toBe(root);
    await request(cloud.client.app).get(file).auth('alice', 's3cret:with:colons').expect(404);
    await request(cloud.client.app).get('/dav/private.txt').auth('alice', 's3cret:with:colons').expect(404);
    const owner = readXml(
      (await request(cloud.client.app).get(new URL(aliceRoot).pathname).auth('alice', 's3cret:with:colons')).text,
    ).container.owner;
    expect(owner).toBe('alice');
  });

  it('Authentication 2 / Versioning 2-3 (inferred): a missing or other X-Client-Specification is served and logged as a warning', async () => {
    const lines: string[] = [];
    const mock = await createApp({ seed: 'empty', log: (l) => lines.push(l) });
    try {
      await request(mock.app).get('/v2').auth('demo', 'demo').expect(200);
      await request(mock.app).get('/v2').auth('demo', 'demo').set('X-Client-Specification', '3').expect(200);
      expect(lines.filter((l) => l.startsWith('warning:'))).toHaveLength(2);
      expect(lines.join('\n')).not.toMatch(/demo:demo|ZGVtbzpkZW1v/);
    } finally {
      await mock.close();
    }
  });

  it('--strict refuses a missing or other X-Client-Specification with 400 text/plain', async () => {
    const strict = new CloudClient(await createApp({ seed: 'empty', strict: true }));
    try {
      await request(strict.app)
        .get('/v2')
        .auth('demo', 'demo')
        .expect(400)
        .expect('Content-Type', 'text/plain; charset=UTF-8');
      await request(strict.app).get('/v2').auth('demo', 'demo').set('X-Client-Specification', '1').expect(400);
      await strict.get('/v2').expect(200);
    } finally {
      await strict.mock.close();
    }
  });

  it('ignores an extra X-Cloud-Key header', async () => {
    await cloud.client.get('/v2').set('X-Cloud-Key', 'some-api-key').expect(200);
  });
});

describe('what a 401 says', () => {
  const cloud = useCloud({ seed: 'empty', users: { demo: 'demo' } });

  it('the login error is the same for an unknown user and a wrong password (it does not tell which users exist)', async () => {
    expect((await request(cloud.client.app).get('/v2').expect(401)).text).toMatch(
      /authentication required: send HTTP Basic credentials/,
    );
    const unknown = await request(cloud.client.app).get('/v2').auth('nobody', 'demo').expect(401);
    const wrong = await request(cloud.client.app).get('/v2').auth('demo', 'nope').expect(401);
    expect(unknown.text).toBe('401 authentication failed: unknown login or wrong password\n');
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
  });

  it('replay with users refuses an unknown login and a wrong password; without, any login replays', async () => {
    const open = await createApp({ mode: { kind: 'replay', recording: 'example-session' } });
    try {
      await request(open.app).get('/v2').auth('anyone', 'anything').set('X-Client-Specification', '2').expect(200);
    } finally {
      await open.close();
    }
    const strict = await createApp({
      mode: { kind: 'replay', recording: 'example-session', users: { demo: 'right' } },
    });
    try {
      const res = await request(strict.app)
        .get('/v2')
        .auth('mallory', 'x')
        .set('X-Client-Specification', '2')
        .expect(401);
      const wrong = await request(strict.app).get('/v2').auth('demo', 'wrong').set('X-Client-Specification', '2');
      expect(wrong.status).toBe(401);
      expect(res.text).toBe('401 authentication failed: unknown login or wrong password\n');
      expect(wrong.text).toBe(res.text);
      await request(strict.app).get('/v2').auth('demo', 'right').set('X-Client-Specification', '2').expect(200);
    } finally {
      await strict.close();
    }
  });
});
