import type { Stream } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import request from 'supertest';
import { afterEach, beforeEach } from 'vitest';
import { createApp, type MockApp, type MockOptions } from '../../src/index.js';
import type { CspDocument } from './xml-documents.js';

export const AUTH = { user: 'demo', password: 'demo' };
/** A fixed Host: supertest listens on a new port per request, and links (so ETags) follow the Host. */
export const SPEC = { 'X-Client-Specification': '2', Host: '127.0.0.1:8080' };

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: () => false,
});

/** Parses an XML body into plain objects ("@_attr" for attributes). */
export function readXml(text: string): CspDocument {
  return xml.parse(text) as CspDocument;
}

/** An authenticated supertest agent factory against a fresh app. */
export class CloudClient {
  readonly mock: MockApp;
  constructor(mock: MockApp) {
    this.mock = mock;
  }
  get app() {
    return this.mock.app;
  }
  get(path: string) {
    return request(this.app).get(path).auth(AUTH.user, AUTH.password).set(SPEC);
  }
  head(path: string) {
    return request(this.app).head(path).auth(AUTH.user, AUTH.password).set(SPEC);
  }
  post(path: string) {
    return request(this.app).post(path).auth(AUTH.user, AUTH.password).set(SPEC);
  }
  put(path: string) {
    return request(this.app).put(path).auth(AUTH.user, AUTH.password).set(SPEC);
  }
  delete(path: string) {
    return request(this.app).delete(path).auth(AUTH.user, AUTH.password).set(SPEC);
  }
  /** The root container's path, e.g. /v2/containers/abc. */
  async rootPath(): Promise<string> {
    const res = await this.get('/v2').expect(200);
    return pathOf(readXml(res.text).cloud.rootContainer['@_xlink:href']);
  }
  async createContainer(parentPath: string, name: string): Promise<string> {
    const res = await this.post(`${parentPath}/contents`)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send(`<container><name>${name}</name></container>`)
      .expect(201);
    return pathOf(res.text.trim());
  }
  async uploadFile(parentPath: string, name: string, content: Buffer | string, field = 'file'): Promise<string> {
    const res = await this.post(`${parentPath}/contents`)
      .attach(field, Buffer.from(content), { filename: name, contentType: 'application/octet-stream' })
      .expect(201);
    return pathOf(res.text.trim());
  }
  /** Names of a container's children, in listing order. */
  async childNames(containerPath: string): Promise<string[]> {
    const res = await this.get(`${containerPath}/contents`).set('X-Cloud-Depth', '1').expect(200);
    const list = readXml(res.text)['file-list'];
    const items = [...asArray(list.container), ...asArray(list.file)];
    return items.map((i) => ('container' in i ? i.container : i.file).name);
  }
}

export function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The path part of an absolute link. */
export function pathOf(href: string): string {
  return new URL(href).pathname;
}

/** A fresh app per test (empty trees unless `seed: 'demo'`), closed afterwards. */
export function useCloud(options: MockOptions = { seed: 'empty' }): { readonly client: CloudClient } {
  const holder: { client?: CloudClient } = {};
  beforeEach(async () => {
    // Tests name hosts under .test (cloud.test, cloud.example.test): allowed like a --allow-host .test.
    holder.client = new CloudClient(await createApp({ allowedHosts: ['.test'], ...options }));
  });
  afterEach(async () => {
    await holder.client?.mock.close();
  });
  return {
    get client() {
      return holder.client!;
    },
  };
}

/** Superagent's binary parser, for reading response bodies as Buffers. */
export function binaryParser(res: Stream, callback: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
