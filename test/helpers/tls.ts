import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ServeProcess } from './cli.js';

export const SERVICE_HEADERS = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

/** One local CA folder for a whole test file (made by the first start), removed afterwards. */
export function useCaFolder(): { readonly path: string } {
  const holder: { path?: string } = {};
  beforeAll(async () => {
    holder.path = await mkdtemp(join(tmpdir(), 'csp-mock-ca-'));
  });
  afterAll(async () => {
    if (holder.path) await rm(holder.path, { recursive: true, force: true });
  });
  return {
    get path() {
      return holder.path!;
    },
  };
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request that trusts `ca` only (no system store), the whole answer read. */
export function httpsRequest(
  url: string,
  options: { ca: string | Buffer; method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, ca: options.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `csp-mock serve --port 0 ...args` with the CA in `caDir`, once it prints its https ready line. */
export async function serveHttps(
  args: string[],
  caDir: string,
  options: { cwd?: string } = {},
): Promise<{ server: ServeProcess; url: string }> {
  const server = new ServeProcess(['serve', '--port', '0', ...args], {
    cwd: options.cwd,
    env: { ...process.env, CSP_MOCK_CA_DIR: caDir },
  });
  const line = await server.waitForLine(/listening on /, 30_000);
  const url = /listening on (\S+)/.exec(line)![1]!;
  return { server, url };
}

/** The value of a ready-line fact ("  HTTPS:  https://..."), or undefined. */
export function readyFact(server: ServeProcess, key: string): string | undefined {
  const line = server.stdout.find((l) => l.startsWith(`  ${key}:`));
  return line?.slice(line.indexOf(':') + 1).trim();
}
