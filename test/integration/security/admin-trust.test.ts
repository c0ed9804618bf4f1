import { get } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp, type MockOptions, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO, killServersAfterEach, serve } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

let app: MockApp | undefined;
let running: RunningMock | undefined;
afterEach(async () => {
  await app?.close();
  await running?.close();
  app = running = undefined;
});
killServersAfterEach();
const tmp = useTempDir('admin-trust');

async function open(options: MockOptions = {}): Promise<MockApp> {
  app = await createApp(options);
  return app;
}

describe('the admin API answers only its own Host and origin (issue 10, finding 2)', () => {
  it('refuses a Host that is not ours (DNS rebinding), on /__admin and on /dav with the demo login', async () => {
    const mock = await open();
    const admin = await request(mock.app).get('/__admin/state').set('Host', 'rebind.attacker.example:8080').expect(403);
    expect(admin.text).toContain('Host "rebind.attacker.example" is not allowed');
    expect(admin.text).toContain('--allow-host rebind.attacker.example');
    expect(admin.text).not.toContain('readme.txt');
    const dav = await request(mock.app)
      .get('/dav/Documents/readme.txt')
      .set('Host', 'rebind.attacker.example:8080')
      .set('Authorization', BASIC_DEMO)
      .expect(403);
    expect(dav.text).not.toContain('Welcome');
  });

  it('answers loopback names, IP addresses, the public URL host and --allow-host names', async () => {
    const mock = await open({
      publicUrl: 'https://cloud.example.test',
      allowedHosts: ['mock.internal', '.corp.example'],
    });
    for (const host of [
      'localhost:8080',
      '127.0.0.1:8080',
      '127.8.9.10',
      '[::1]:8080',
      '192.168.1.20:8080',
      'cloud.example.test',
      'mock.internal:9',
      'a.corp.example',
      'in-process.invalid',
    ]) {
      await request(mock.app).get('/__admin/scenario').set('Host', host).expect(200);
    }
    await request(mock.app).get('/__admin/scenario').set('Host', 'corp.example.attacker.test').expect(403);
  });

  it('refuses a cross-site form POST to /__admin/reset and the file uploaded under --data survives', async () => {
    running = await startMock({ data: join(tmp.path, 'state.json') });
    const put = await fetch(`${running.url}/dav/kept.txt`, {
      method: 'PUT',
      headers: { Authorization: BASIC_DEMO },
      body: 'precious',
    });
    expect(put.status).toBe(201);
    // What a browser sends for <form method=post action="http://127.0.0.1:PORT/__admin/reset"> on another site.
    const form = await fetch(`${running.url}/__admin/reset`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
        'Sec-Fetch-Mode': 'navigate',
      },
      body: 'x=1',
    });
    expect(form.status).toBe(403);
    // Each signal alone is enough: an Origin that is not ours, Sec-Fetch-Site: cross-site, a form body.
    expect(
      (await fetch(`${running.url}/__admin/reset`, { method: 'POST', headers: { Origin: 'https://evil.example' } }))
        .status,
    ).toBe(403);
    expect(
      (await fetch(`${running.url}/__admin/reset`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site' } }))
        .status,
    ).toBe(403);
    const text = await fetch(`${running.url}/__admin/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
    const after = await fetch(`${running.url}/dav/kept.txt`, { headers: { Authorization: BASIC_DEMO } });
    expect(await after.text()).toBe('precious');
    // Our own page (same origin) and tools without an Origin still reset.
    expect(
      (
        await fetch(`${running.url}/__admin/reset`, {
          method: 'POST',
          headers: { Origin: running.url, 'Sec-Fetch-Site': 'same-origin' },
        })
      ).status,
    ).toBe(204);
    expect((await fetch(`${running.url}/dav/kept.txt`, { headers: { Authorization: BASIC_DEMO } })).status).toBe(404);
  });

  it('parses admin bodies only when they are application/json', async () => {
    const mock = await open();
    await request(mock.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'text/plain')
      .send('{"name":"empty"}')
      .expect(415);
    await request(mock.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('name=empty')
      .expect(415);
    expect((await request(mock.app).get('/__admin/scenario')).body.name).toBe('default');
    await request(mock.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('{"name":"empty"}')
      .expect(200);
  });

  it('never quotes a file in an error: {"name": "/etc/passwd"} and {"extends": "/etc/passwd"} over HTTP', async () => {
    const mock = await open();
    const byName = await request(mock.app).put('/__admin/scenario').send({ name: '/etc/passwd' }).expect(400);
    expect(byName.text).toContain('is a path; over HTTP a scenario is named');
    const byExtends = await request(mock.app).put('/__admin/scenario').send({ extends: '/etc/passwd' }).expect(400);
    expect(`${byName.text}${byExtends.text}`).not.toMatch(/root:|daemon:/);
    // Even a path the user typed: the parse error names the file, never its bytes.
    const err = await createApp({ scenario: '/etc/passwd' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('/etc/passwd: not valid JSON');
    expect(err?.message).not.toMatch(/root:|daemon:/);
  });

  it('warns on start when bound to a non-loopback address without an admin token', async () => {
    const open0 = await serve(['--host', '0.0.0.0']);
    await expect.poll(() => open0.stderr.join('\n')).toContain('warning: listening on 0.0.0.0');
    expect(open0.stderr.join('\n')).toContain('--admin-token');
    const guarded = await serve(['--host', '0.0.0.0', '--admin-token', 's3cret']);
    const loopback = await serve();
    await guarded.stop();
    await loopback.stop();
    expect([...guarded.stderr, ...loopback.stderr].join('\n')).not.toContain('warning');
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(
        {
          host: '127.0.0.1',
          port: open0.port,
          path: '/__admin/scenario',
          headers: { Host: 'rebind.attacker.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      ).on('error', reject),
    );
    expect(status).toBe(403);
  }, 30_000);
});
