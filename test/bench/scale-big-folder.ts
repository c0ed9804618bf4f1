import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { timed } from './scale-requests.js';
import { AUTH, ScaleServer } from './scale-server.js';

/** One listing as a client saw it, and what the server's memory did meanwhile. */
interface Listed {
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  rssGrowthMiB: number;
  /** The slowest GET /v2/account another client sent while the listing was read. */
  worstProbeMs: number;
}

const say = (line: string): void => console.log(line);

/** Reads one answer on its own connection, sampling the server's RSS and probing it with another client meanwhile. */
async function listed(
  server: ScaleServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<Listed> {
  const agent = new Agent({ keepAlive: false });
  const before = server.rssMiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 5);
  let done = false;
  const probes: number[] = [];
  const probing = (async () => {
    while (!done) {
      probes.push(await timed(server.url, { method: 'GET', path: '/v2/account', headers: AUTH, expect: 200 }));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = process.hrtime.bigint();
  const since = (): number => Number(process.hrtime.bigint() - t0) / 1e6;
  try {
    return await new Promise<Listed>((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        { method, headers: { ...AUTH, ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent },
        (res) => {
          let firstByteMs = 0;
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            if (bytes === 0) firstByteMs = since();
            bytes += chunk.length;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              firstByteMs,
              totalMs: since(),
              bytes,
              rssGrowthMiB: Math.max(0, peak - before),
              worstProbeMs: 0,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    }).then(async (r) => {
      done = true;
      await probing;
      return { ...r, rssGrowthMiB: Math.max(0, peak - before), worstProbeMs: Math.max(0, ...probes) };
    });
  } finally {
    done = true;
    clearInterval(sampler);
    agent.destroy();
  }
}

const line = (what: string, r: Listed): string =>
  `${what}: first byte ${r.firstByteMs.toFixed(1)} ms (goal <= 200 ms), whole ${r.totalMs.toFixed(0)} ms for ` +
  `${(r.bytes / 1e6).toFixed(1)} MB; RSS growth ${r.rssGrowthMiB.toFixed(1)} MiB (goal <= 64 MiB); ` +
  `GET /v2/account meanwhile: worst ${r.worstProbeMs.toFixed(1)} ms`;

const PROPFIND_BODY =
  '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/></d:prop></d:propfind>';

/**
 * Two folders of `files` empty files each, seeded by a scenario, then listed through /v2
 * contents (depth 0: every link; depth 1: the first page of entities) and PROPFIND Depth 1: each
 * folder first when it was never listed (its order is sorted then), then after one new file (the kept
 * order is brought up to date), then once more unchanged.
 */
export async function bigFolderListings(files: number, dir: string): Promise<void> {
  const children = Array.from({ length: files }, (_, i) => ({ file: `photo-${String(i).padStart(7, '0')}.jpg` }));
  const tree = [
    { container: 'big', children },
    { container: 'big-dav', children },
  ];
  // A scenario file (an inline one over the admin API is capped at 5 MB).
  const scenario = join(dir, 'big-folder.json');
  await writeFile(scenario, JSON.stringify({ name: 'bench-big-folder', seed: { tree } }));
  const server = await ScaleServer.start(['--scenario', scenario]);
  try {
    const contents = `/v2/containers/${await containerId(server.url, 'big')}/contents`;
    const v2 = (depth: string) => () => listed(server, 'GET', contents, { 'X-Cloud-Depth': depth });
    const propfind = () =>
      listed(server, 'PROPFIND', '/dav/big-dav/', { Depth: '1', 'Content-Type': 'application/xml' }, PROPFIND_BODY);
    const runs: Array<[string, string, () => Promise<Listed>]> = [
      ['big', '/v2 contents, depth 0 (every link)', v2('0')],
      ['big', '/v2 contents, depth 1 (first 5,000 entities)', v2('1')],
      ['big-dav', 'PROPFIND Depth 1 (4 properties)', propfind],
    ];
    const listedBefore = new Set<string>();
    let added = 0;
    for (const [folder, what, run] of runs) {
      const label = `big folder of ${files} files, ${what}`;
      if (!listedBefore.has(folder)) {
        listedBefore.add(folder);
        say(line(`${label}, never listed before`, checked(await run())));
      }
      await timed(server.url, {
        method: 'PUT',
        path: `/dav/${folder}/added-${added++}.jpg`,
        headers: AUTH,
        expect: 201,
      });
      say(line(`${label}, after one new file`, checked(await run())));
      say(line(`${label}, unchanged`, checked(await run())));
    }
  } finally {
    await server.stop();
  }
}

function checked(r: Listed): Listed {
  if (r.status >= 300) throw new Error(`a listing answered ${r.status}`);
  return r;
}

/** The id of a container under the root, from its namespace address. */
function containerId(base: string, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(`${base}/v2/namespace/${encodeURIComponent(name)}`, { headers: AUTH }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        const id = /\/v2\/containers\/([^"/]+)\/contents"/.exec(text)?.[1];
        if (id) resolve(id);
        else reject(new Error(`no container ${name}: ${res.statusCode} ${text.slice(0, 200)}`));
      });
    })
      .on('error', reject)
      .end();
  });
}
