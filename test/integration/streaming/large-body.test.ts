import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BASIC_DEMO, killServersAfterEach, serve } from '../../helpers/cli.js';
import { HttpCloud } from '../../helpers/http-cloud.js';

const MIB = 1024 * 1024;
const BODY_MIB = 256;
/** Far below the body: a server that held the body whole would need more than 256 MiB. */
const RSS_LIMIT = 160 * MIB;

/** Peak resident memory of a process so far (Linux /proc). */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Chunk `i` of the generated body: 1 MiB whose first bytes carry its index. */
function chunk(i: number, base: Buffer): Buffer {
  const c = Buffer.from(base);
  c.writeUInt32BE(i, 0);
  return c;
}

function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: (write: (b: Buffer) => Promise<void>) => Promise<void>,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2', ...headers } },
      resolve,
    );
    req.on('error', reject);
    const write = (b: Buffer): Promise<void> => new Promise((ok) => (req.write(b) ? ok() : req.once('drain', ok)));
    body(write).then(() => req.end(), reject);
  });
}

async function drain(res: IncomingMessage): Promise<{ bytes: number; sha: string; text: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let head = '';
  for await (const c of res) {
    hash.update(c as Buffer);
    bytes += (c as Buffer).length;
    if (head.length < 200) head += (c as Buffer).subarray(0, 200).toString('latin1');
  }
  return { bytes, sha: hash.digest('hex'), text: head };
}

describe('streamed content (a 256 MiB body is never held in memory)', () => {
  killServersAfterEach();

  it(
    'takes a 256 MiB chunked PUT and serves it whole and by range, with the server RSS far below the body size',
    { timeout: 60_000 },
    async () => {
      const server = await serve(['--empty']);
      const cloud = new HttpCloud(server.url);
      const created = await cloud.request(
        `${await cloud.rootPath()}/contents`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
          body: '<file><name>big.bin</name><mime_type>application/octet-stream</mime_type><public>false</public></file>',
        },
        201,
      );
      const file = new URL((await created.text()).trim()).pathname;
      const base = Buffer.alloc(MIB, 'abcdefghijklmnopqrstuvwxyz');
      const sent = createHash('sha256');

      const put = await send(
        `${server.url}${file}/content`,
        'PUT',
        { 'Content-Type': 'application/octet-stream' },
        async (write) => {
          for (let i = 0; i < BODY_MIB; i++) {
            const c = chunk(i, base);
            sent.update(c);
            await write(c);
          }
        },
      );
      expect(put.statusCode).toBe(204);
      put.resume();
      const afterUpload = await peakRss(server.pid);
      expect(afterUpload).toBeLessThan(RSS_LIMIT);

      const entity = await (await cloud.request(file, {}, 200)).text();
      expect(entity).toContain(`<bytes>${BODY_MIB * MIB}</bytes>`);

      const whole = await send(`${server.url}${file}/content`, 'GET', {}, async () => undefined);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBe(String(BODY_MIB * MIB));
      const got = await drain(whole);
      expect(got.bytes).toBe(BODY_MIB * MIB);
      expect(got.sha).toBe(sent.digest('hex'));

      const offset = 200 * MIB + 10;
      const ranged = await send(
        `${server.url}${file}/content`,
        'GET',
        { Range: `bytes=${offset}-${offset + 99}` },
        async () => undefined,
      );
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes ${offset}-${offset + 99}/${BODY_MIB * MIB}`);
      const part = await drain(ranged);
      expect(part.bytes).toBe(100);
      expect(part.text).toBe(chunk(200, base).subarray(10, 110).toString('latin1'));

      expect(await peakRss(server.pid)).toBeLessThan(RSS_LIMIT);
    },
  );

  it(
    'streams a 128 MiB multipart upload into the store without holding it in memory',
    { timeout: 60_000 },
    async () => {
      const server = await serve(['--empty']);
      const cloud = new HttpCloud(server.url);
      const root = await cloud.rootPath();
      const boundary = 'csp-mock-stream-test';
      const base = Buffer.alloc(MIB, 'z');
      const parts = 128;
      const res = await send(
        `${server.url}${root}/contents`,
        'POST',
        { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        async (write) => {
          await write(
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="Filedata"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
            ),
          );
          for (let i = 0; i < parts; i++) await write(chunk(i, base));
          await write(Buffer.from(`\r\n--${boundary}--\r\n`));
        },
      );
      expect(res.statusCode).toBe(201);
      res.resume();
      const [item] = await cloud.list(root);
      expect(item).toMatchObject({ name: 'huge.bin', bytes: parts * MIB });
      expect(await peakRss(server.pid)).toBeLessThan(RSS_LIMIT);
    },
  );
});
