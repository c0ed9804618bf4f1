import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { basic, listenOnLoopback } from '../../helpers/raw-http.js';

describe('concurrent writers and aborted uploads', () => {
  const cloud = useCloud();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('twenty parallel uploads of one name: exactly one 201, the rest 422, and one file remains', async () => {
    const root = await cloud.client.rootPath();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cloud.client.post(`${root}/contents`).attach('file', Buffer.alloc(1000 + i, i), 'race.bin'),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    expect(await cloud.client.childNames(root)).toEqual(['race.bin']);
  });

  it('parallel content writes to one file all succeed and leave one whole version', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'w.bin', 'start');
    const bodies = Array.from({ length: 10 }, (_, i) => Buffer.alloc(5000, 97 + i));
    const results = await Promise.all(bodies.map((b) => cloud.client.put(`${file}/content`).send(b)));
    expect(results.every((r) => r.status === 204)).toBe(true);
    const text = (
      await cloud.client
        .get(`${file}/content`)
        .buffer(true)
        .parse((res, cb) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => cb(null, Buffer.concat(parts)));
        })
    ).body as Buffer;
    expect(text.length).toBe(5000);
    expect(new Set(text.toString()).size).toBe(1);
  });

  it('a client that aborts mid-upload leaves no file and the server keeps serving', async () => {
    const server = await listenOnLoopback(cloud.client.app);
    close = server.close;
    const root = await cloud.client.rootPath();
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port: server.port,
        host: '127.0.0.1',
        method: 'POST',
        path: `${root}/contents`,
        headers: {
          Authorization: basic('demo', 'demo'),
          'Content-Type': 'multipart/form-data; boundary=AB',
          'Content-Length': '100000',
        },
      });
      req.on('error', () => resolve());
      req.write('--AB\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n');
      req.write(Buffer.alloc(2000, 1));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await cloud.client.childNames(root)).toEqual([]);
    await cloud.client.uploadFile(root, 'cut.bin', 'after');
    expect(await cloud.client.childNames(root)).toEqual(['cut.bin']);
  });
});
