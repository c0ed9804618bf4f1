import { readXml, asArray } from './cloud.js';
import { BASIC_DEMO } from './cli.js';

export interface ListedItem {
  kind: 'container' | 'file';
  id: string;
  name: string;
  bytes: number;
  /** Path of the entity, e.g. /v2/files/abc. */
  path: string;
}

/** A small /v2 client over fetch, for servers running in another process. */
export class HttpCloud {
  readonly url: string;
  readonly auth: string;
  constructor(url: string, auth = BASIC_DEMO) {
    this.url = url;
    this.auth = auth;
  }

  async request(path: string, init: RequestInit = {}, expected?: number): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Authorization', this.auth);
    headers.set('X-Client-Specification', '2');
    const res = await fetch(`${this.url}${path}`, { ...init, headers });
    if (expected !== undefined && res.status !== expected) {
      throw new Error(`${init.method ?? 'GET'} ${path}: expected ${expected}, got ${res.status} ${await res.text()}`);
    }
    return res;
  }

  async rootPath(): Promise<string> {
    const text = await (await this.request('/v2', {}, 200)).text();
    return new URL(readXml(text).cloud.rootContainer['@_xlink:href']).pathname;
  }

  async createContainer(parentPath: string, name: string): Promise<string> {
    const res = await this.request(
      `${parentPath}/contents`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.csp.container-info+xml' },
        body: `<container><name>${name}</name></container>`,
      },
      201,
    );
    return new URL((await res.text()).trim()).pathname;
  }

  /** Row 4: multipart upload; resolves with the new file's path. */
  async upload(parentPath: string, name: string, content: Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), name);
    const res = await this.request(`${parentPath}/contents`, { method: 'POST', body: form }, 201);
    return new URL((await res.text()).trim()).pathname;
  }

  async putContent(filePath: string, content: Buffer): Promise<void> {
    await this.request(`${filePath}/content`, { method: 'PUT', body: new Uint8Array(content) }, 204);
  }

  async rename(filePath: string, name: string): Promise<void> {
    await this.request(
      filePath,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
        body: `<file><name>${name}</name></file>`,
      },
      204,
    );
  }

  async delete(path: string): Promise<void> {
    await this.request(path, { method: 'DELETE' }, 204);
  }

  async content(filePath: string): Promise<Buffer> {
    return Buffer.from(await (await this.request(`${filePath}/content`, {}, 200)).arrayBuffer());
  }

  /** Every child of a container (one page of up to 10,000), with names and sizes. */
  async list(containerPath: string): Promise<ListedItem[]> {
    const res = await this.request(`${containerPath}/contents?count=10000`, { headers: { 'X-Cloud-Depth': '1' } }, 200);
    const list = readXml(await res.text())['file-list'];
    const items: ListedItem[] = [];
    const add = (kind: ListedItem['kind'], href: string, entity: { name: string; bytes: string }) => {
      const path = new URL(href).pathname;
      items.push({ kind, id: path.split('/').pop()!, name: entity.name, bytes: Number(entity.bytes), path });
    };
    for (const item of asArray(list.container)) add('container', item['@_xlink:href'], item.container);
    for (const item of asArray(list.file)) add('file', item['@_xlink:href'], item.file);
    return items;
  }
}
