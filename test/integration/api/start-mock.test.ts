import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type RunningMock } from '../../../src/index.js';
import { refusesConnections } from '../../helpers/cli.js';
import { HttpCloud } from '../../helpers/http-cloud.js';

const serversOpen = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

/** Node frees a closed server's handle a moment after the close callback: wait for it, boundedly. */
async function serversSettleAt(count: number): Promise<number> {
  for (let i = 0; i < 100 && serversOpen() !== count; i++) await new Promise((r) => setTimeout(r, 10));
  return serversOpen();
}

describe('startMock() and createApp() for test suites', () => {
  const started: RunningMock[] = [];
  const start = async (options: Parameters<typeof startMock>[0] = {}): Promise<RunningMock> => {
    const mock = await startMock(options);
    started.push(mock);
    return mock;
  };
  afterEach(async () => {
    for (const mock of started.splice(0)) await mock.close().catch(() => undefined);
  });

  it('listens on a free loopback port by default and reports url and port', async () => {
    const mock = await start();
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    const root = await new HttpCloud(mock.url).rootPath();
    expect(root).toMatch(/^\/v2\/containers\//);
  });

  it('reset() brings back the demo seed after changes', async () => {
    const mock = await start();
    const cloud = new HttpCloud(mock.url);
    const seeded = (await cloud.list(await cloud.rootPath())).map((i) => i.name).sort();
    expect(seeded).toEqual(expect.arrayContaining(['Documents', 'Photos']));
    await cloud.delete((await cloud.list(await cloud.rootPath())).find((i) => i.name === 'Documents')!.path);
    await cloud.createContainer(await cloud.rootPath(), 'scratch');
    await mock.reset();
    expect((await cloud.list(await cloud.rootPath())).map((i) => i.name).sort()).toEqual(seeded);
  });

  it("reset() with seed 'empty' brings back empty trees", async () => {
    const mock = await start({ seed: 'empty' });
    const cloud = new HttpCloud(mock.url);
    await cloud.upload(await cloud.rootPath(), 'x.txt', Buffer.from('x'));
    await mock.reset();
    expect(await cloud.list(await cloud.rootPath())).toEqual([]);
  });

  it('close() stops listening, drops keep-alive connections, leaves no server handle and removes the temp blob folder', async () => {
    const before = await serversSettleAt(0);
    const mock = await start();
    expect(serversOpen()).toBe(before + 1);
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${mock.url}/v2`,
        { agent, headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const blobDir = mock.store.blobs.dir;
    await mock.close();
    agent.destroy();
    expect(await serversSettleAt(before)).toBe(before);
    expect(await refusesConnections(mock.port)).toBe(true);
    expect(existsSync(blobDir)).toBe(false);
  });

  it('runs several mocks at once, each with its own state, users and port', async () => {
    const a = await start({ seed: 'empty' });
    const b = await start({ seed: 'empty', users: { ann: 'pw' } });
    expect(a.port).not.toBe(b.port);
    const cloudA = new HttpCloud(a.url);
    const cloudB = new HttpCloud(b.url, `Basic ${Buffer.from('ann:pw').toString('base64')}`);
    await cloudA.createContainer(await cloudA.rootPath(), 'only-in-a');
    expect(await cloudB.list(await cloudB.rootPath())).toEqual([]);
    expect((await fetch(`${b.url}/v2`, { headers: { Authorization: cloudA.auth } })).status).toBe(401);
    await b.reset();
    expect((await cloudA.list(await cloudA.rootPath())).map((i) => i.name)).toEqual(['only-in-a']);
  });

  it('keeps state in a data file across close() and a new startMock()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'csp-mock-api-'));
    try {
      const data = join(dir, 'state.json');
      const first = await start({ seed: 'empty', data });
      const cloud = new HttpCloud(first.url);
      await cloud.createContainer(await cloud.rootPath(), 'survives');
      await first.close();
      const second = await start({ seed: 'empty', data });
      const again = new HttpCloud(second.url);
      expect((await again.list(await again.rootPath())).map((i) => i.name)).toEqual(['survives']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('createApp() never listens and serves supertest directly', async () => {
    const before = await serversSettleAt(0);
    const mock = await createApp({ seed: 'empty' });
    expect(serversOpen()).toBe(before);
    const res = await request(mock.app).get('/v2').auth('demo', 'demo').set('X-Client-Specification', '2').expect(200);
    expect(res.text.startsWith('<cloud')).toBe(true);
    await mock.close();
  });

  it('refuses invalid options with a clear error', async () => {
    await expect(startMock({ users: {} })).rejects.toThrow('at least one user is needed');
    await expect(startMock({ publicUrl: 'ftp://x' })).rejects.toThrow(/public URL must look like/);
  });
});
