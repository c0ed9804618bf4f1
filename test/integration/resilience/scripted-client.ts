import { request } from 'node:http';
import { asArray, readXml } from '../../helpers/cloud.js';

const AUTH = `Basic ${Buffer.from('demo:demo').toString('base64')}`;

/** What a client saw: an answer, or the connection ending without one. */
export type Seen =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
  | { kind: 'reset' | 'closed'; code: string };

/**
 * A small scripted /v2 client over node:http (a fresh connection a request), reporting a reset or a
 * close as what it is rather than throwing: the tests look at what a client would have seen.
 */
export class ScriptedClient {
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }

  send(method: string, path: string, options: { headers?: Record<string, string>; body?: Buffer | string } = {}) {
    return new Promise<Seen>((resolve) => {
      const req = request(
        `${this.url}${path}`,
        {
          method,
          agent: false,
          headers: { Authorization: AUTH, 'X-Client-Specification': '2', ...options.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ kind: 'answer', status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'closed', code: err.code ?? err.message }));
        },
      );
      // Node names a close before any answer "socket hang up" (code ECONNRESET too); a TCP reset is "read ECONNRESET".
      req.on('error', (err: NodeJS.ErrnoException) =>
        resolve({
          kind: err.code === 'ECONNRESET' && err.message !== 'socket hang up' ? 'reset' : 'closed',
          code: err.code ?? err.message,
        }),
      );
      req.end(options.body);
    });
  }

  /** Like send, but a connection failure or another status is an error (for the steps that must work). */
  async expect(status: number, method: string, path: string, options?: Parameters<ScriptedClient['send']>[2]) {
    const seen = await this.send(method, path, options);
    if (seen.kind !== 'answer' || seen.status !== status)
      throw new Error(
        `${method} ${path}: expected ${status}, saw ${seen.kind === 'answer' ? `${seen.status} ${seen.body}` : seen.kind}`,
      );
    return seen;
  }

  async rootPath(): Promise<string> {
    const seen = await this.expect(200, 'GET', '/v2');
    return new URL(readXml(seen.body.toString()).cloud.rootContainer['@_xlink:href']).pathname;
  }

  /** An empty file named `name` in the container; its path (/v2/files/ID). */
  async createFile(containerPath: string, name: string): Promise<string> {
    const seen = await this.expect(201, 'POST', `${containerPath}/contents`, {
      headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
      body: `<file><name>${name}</name></file>`,
    });
    return new URL(seen.body.toString().trim()).pathname;
  }

  /** One block of a chunked upload: PUT <file>/content with Content-Range bytes a-b/*. */
  putBlock(filePath: string, offset: number, block: Buffer): Promise<Seen> {
    return this.send('PUT', `${filePath}/content`, {
      headers: { 'Content-Range': `bytes ${offset}-${offset + block.length - 1}/*` },
      body: block,
    });
  }

  /** Names of a container's children. */
  async names(containerPath: string): Promise<string[]> {
    const seen = await this.expect(200, 'GET', `${containerPath}/contents?count=10000`, {
      headers: { 'X-Cloud-Depth': '1' },
    });
    const list = readXml(seen.body.toString())['file-list'];
    const containers = asArray(list.container).map((c) => c.container.name);
    const files = asArray(list.file).map((f) => f.file.name);
    return [...containers, ...files].sort();
  }
}
