import type { Express } from 'express';
import request from 'supertest';
import { asArray, binaryParser, pathOf, readXml } from '../../helpers/cloud.js';

/**
 * The request sequence of the service's own C# sync client (ssali/MezeoFile_GA, MezeoFileCloud.cs at
 * 950c339; frmLogin.cs CheckAndCreateNotificationQueue; frmSyncManager.cs UpdateFromNQ), re-created
 * over supertest: the same methods, paths, headers and parsed fields. Local files are a map.
 * `build` picks how UpdateFromNQ addresses the namespace read: 950c339 appends the event's path as it is
 * (.NET's Uri escapes what a URL cannot hold, as `encodeURI` does); 7e22b40, the newest, passes it
 * through HttpUtility.UrlEncode (`/` included) and turns its `+` back into `%20`.
 */

const API_KEY = 'c0ffee';
const HOST = '127.0.0.1:8080';
/** OnGetRequest's headers. */
const REST = (accept: string, depth: string) => ({
  'X-Client-Specification': '2',
  ...(depth ? { 'X-Cloud-Depth': depth } : {}),
  ...(accept ? { Accept: accept } : {}),
  'X-Cloud-Key': API_KEY,
  Host: HOST,
});
/** OnNotificationQueue's headers. */
const CDMI = {
  'X-CDMI-Specification-Version': '1.0.1',
  Accept: 'application/cdmi-queue',
  'Content-Type': 'application/cdmi-queue',
  'X-Cloud-Key': API_KEY,
  Host: HOST,
};

export interface LoginDetails {
  userName: string;
  contentsUri: string;
  managementUri: string;
  namespaceUri: string;
  nqParentUri: string;
}

export interface NqEvent {
  cdmi_event: string;
  cdmi_event_result: string;
  cdmi_event_time: string;
  cdmi_event_user: string;
  objectID: string;
  objectName: string;
  objectType: string;
  parentURI: string;
  parentID: string;
  domainURI: string;
  metadata: { mezeo_exported_path: string; cdmi_size: string; cdmi_hash?: string };
}

export type ClientBuild = '950c339' | '7e22b40';

/** HttpUtility.UrlEncode: UTF-8, lower-case hex, a space as `+`, only letters, digits and -_.!*() kept. */
export function httpUtilityUrlEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.!*()]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** The namespace address a build reads an event's exported path at (frmSyncManager.cs UpdateFromNQ). */
export function namespaceAddress(namespace: string, exportedPath: string, build: ClientBuild): string {
  if (build === '950c339') return `${namespace}/${encodeURI(exportedPath)}`;
  return `${namespace}/${httpUtilityUrlEncode(exportedPath).replaceAll('+', '%20')}`;
}

export interface LocalEntry {
  kind: 'FILE' | 'DIRECTORY';
  content?: string;
  contentUrl: string;
}

export class MezeoSyncClient {
  readonly #app: Express;
  readonly #user: string;
  readonly #password: string;
  readonly queueName: string;
  login!: LoginDetails;
  /** Key ("dir/sub/name") -> what the client's database and sync folder hold. */
  readonly local = new Map<string, LocalEntry>();
  /** Every request made, "METHOD path", in order. */
  readonly requests: string[] = [];

  readonly #build: ClientBuild;

  constructor(app: Express, user: string, password: string, build: ClientBuild, mac = '0019B9F1A2C3') {
    this.#app = app;
    this.#build = build;
    this.#user = user;
    this.#password = password;
    this.queueName = `${mac}-${user}`;
  }

  #send(method: 'get' | 'put' | 'delete', path: string, headers: Record<string, string>) {
    this.requests.push(`${method.toUpperCase()} ${path}`);
    return request(this.#app)[method](path).auth(this.#user, this.#password).set(headers);
  }

  /** Login: GET /v2 as cloud2 at depth 1, then the XPaths it reads; null where the client's Login returns null. */
  async signIn(): Promise<LoginDetails | null> {
    const res = await this.#send('get', '/v2', REST('application/vnd.csp.cloud2+xml', '1'));
    if (res.status !== 200 || res.text.slice(0, 6) !== '<cloud') return null;
    const cloud = readXml(res.text).cloud;
    const management = cloud.locations?.location?.management;
    const namespace = cloud.namespaces?.namespaces?.namespace?.container;
    if (!management || !namespace) return null;
    this.login = {
      userName: cloud.account['account-info'].username,
      contentsUri: cloud.rootContainer.container.contents['@_xlink:href'],
      managementUri: management['@_xlink:href'],
      namespaceUri: namespace['@_xlink:href'],
      nqParentUri: '',
    };
    return this.login;
  }

  /** NQParentUri: parentURI + objectName of the management address. */
  async nqParentUri(): Promise<string> {
    const res = await this.#send('get', pathOf(this.login.managementUri), CDMI).expect(200);
    const body = JSON.parse(res.text) as { parentURI: string; objectName: string };
    return body.parentURI + body.objectName;
  }

  #queuePath(query = ''): string {
    return `${this.login.nqParentUri}/${this.queueName}${query}`;
  }

  /** NQGetLength: last - first + 1 of queueValues; 0 (and the status) when the queue is missing or empty. */
  async nqGetLength(): Promise<{ status: number; length: number }> {
    const res = await this.#send('get', this.#queuePath('?queueValues'), CDMI);
    if (res.status !== 200) return { status: res.status, length: 0 };
    const range = (JSON.parse(res.text) as { queueValues: string }).queueValues;
    const dash = range.indexOf('-');
    // The client's Substring(0, -1) throws on an empty range: it reports -3 and a length of 0.
    if (dash === -1) return { status: -3, length: 0 };
    return { status: 200, length: Number(range.slice(dash + 1)) - Number(range.slice(0, dash)) + 1 };
  }

  /** NQGetData: {"value": [JSON strings]}, each deserialised as one event. */
  async nqGetData(count: number): Promise<NqEvent[]> {
    const res = await this.#send('get', this.#queuePath(`?values:${count}`), CDMI).expect(200);
    return (JSON.parse(res.text) as { value: string[] }).value.map((v) => JSON.parse(v) as NqEvent);
  }

  /** NQCreate: the client's document, scoped to "starts <queue parent>". */
  async nqCreate(): Promise<number> {
    const starts = this.login.nqParentUri;
    const doc =
      '{"metadata":{"cdmi_queue_type":"cdmi_notification_queue",' +
      '"cdmi_notification_events":["cdmi_create_complete","cdmi_modify_complete","cdmi_delete",' +
      `"cdmi_rename","cdmi_copy"],"cdmi_scope_specification":[{"parentURI":"starts ${starts}"}],` +
      '"cdmi_results_specification":{"cdmi_event":"","cdmi_event_result":"","cdmi_event_time":"",' +
      '"cdmi_event_user":"","objectName":"","objectID":"","objectType":"","parentURI":"","parentID":"",' +
      '"domainURI":"","metadata":{"mezeo_exported_path":"","cdmi_size":"","cdmi_hash":""}}}}';
    this.requests.push(`PUT ${this.#queuePath()}`);
    const res = await request(this.#app).put(this.#queuePath()).auth(this.#user, this.#password).set(CDMI).send(doc);
    return res.status;
  }

  async nqDeleteValue(count: number): Promise<number> {
    return (await this.#send('delete', this.#queuePath(`?values:${count}`), CDMI)).status;
  }

  /** frmLogin.CheckAndCreateNotificationQueue, for a first (initial) sync. */
  async checkAndCreateNotificationQueue(): Promise<void> {
    this.login.nqParentUri = await this.nqParentUri();
    const { status, length } = await this.nqGetLength();
    let events: NqEvent[] | null = null;
    if (length > 0) events = await this.nqGetData(length);
    if (events) await this.nqDeleteValue(length);
    if (status === 404 && events === null) await this.nqCreate();
  }

  /** frmSyncManager's loop: length, the values, then each applied and acknowledged one at a time. */
  async syncOnce(): Promise<NqEvent[]> {
    const { length } = await this.nqGetLength();
    if (length === 0) return [];
    const events = await this.nqGetData(length);
    for (const event of events) {
      await this.#updateFromNq(event);
      await this.nqDeleteValue(1);
    }
    return events;
  }

  /** GetNamespaceResult: the entity at <namespace>/<exported path>, read with the Accept of its type. */
  async getNamespaceResult(exportedPath: string, type: 'FILE' | 'DIRECTORY') {
    const accept = type === 'FILE' ? 'application/vnd.csp.file-info+xml' : 'application/vnd.csp.container-info+xml';
    const address = namespaceAddress(pathOf(this.login.namespaceUri), exportedPath, this.#build);
    const res = await this.#send('get', address, REST(accept, ''));
    if (res.status !== 200) return null;
    const doc = readXml(res.text);
    const entity = type === 'FILE' ? doc.file : doc.container;
    if (!entity) return null;
    const link =
      type === 'FILE'
        ? (entity as typeof doc.file & { content: { '@_xlink:href': string } }).content
        : doc.container.contents;
    return { name: entity.name, contentUrl: link['@_xlink:href'] };
  }

  async #download(contentUrl: string, name: string): Promise<string> {
    const res = await this.#send('get', `${pathOf(contentUrl)}/${encodeURIComponent(name)}`, REST('', '1'))
      .buffer(true)
      .parse(binaryParser)
      .expect(200);
    return (res.body as Buffer).toString('utf8');
  }

  /** DownloadFolderStructureForNQ: the folder's listing, files downloaded, folders walked. */
  async #downloadFolder(contentsUrl: string, key: string): Promise<void> {
    const res = await this.#send('get', pathOf(contentsUrl), REST('', '1')).expect(200);
    const list = readXml(res.text)['file-list'];
    for (const item of asArray(list.container)) {
      const c = item.container;
      const childKey = `${key}/${c.name}`;
      this.local.set(childKey, { kind: 'DIRECTORY', contentUrl: c.contents['@_xlink:href'] });
      await this.#downloadFolder(c.contents['@_xlink:href'], childKey);
    }
    for (const item of asArray(list.file)) {
      const f = item.file as typeof item.file & { content: { '@_xlink:href': string } };
      const url = f.content['@_xlink:href'];
      this.local.set(`${key}/${f.name}`, { kind: 'FILE', contentUrl: url, content: await this.#download(url, f.name) });
    }
  }

  #keyOfContentUrl(url: string): string | undefined {
    for (const [key, entry] of this.local) if (entry.contentUrl === url) return key;
    return undefined;
  }

  #moveTree(from: string, to: string): void {
    for (const [key, entry] of [...this.local]) {
      if (key !== from && !key.startsWith(`${from}/`)) continue;
      this.local.delete(key);
      this.local.set(to + key.slice(from.length), entry);
    }
  }

  /** UpdateFromNQ. */
  async #updateFromNq(nq: NqEvent): Promise<void> {
    const type = nq.objectType === 'application/cdmi-container' ? 'DIRECTORY' : 'FILE';
    const ns = await this.getNamespaceResult(nq.metadata.mezeo_exported_path, type);
    if (!ns && nq.cdmi_event !== 'cdmi_delete') return;
    const key = nq.parentURI.slice(this.login.nqParentUri.length + 1) + nq.objectName;
    switch (nq.cdmi_event) {
      case 'cdmi_create_complete':
        if (this.#keyOfContentUrl(ns!.contentUrl) !== undefined) return;
        if (type === 'FILE') {
          this.local.set(key, {
            kind: 'FILE',
            contentUrl: ns!.contentUrl,
            content: await this.#download(ns!.contentUrl, ns!.name),
          });
        } else {
          this.local.set(key, { kind: 'DIRECTORY', contentUrl: ns!.contentUrl });
          await this.#downloadFolder(ns!.contentUrl, key);
        }
        return;
      case 'cdmi_modify_complete': {
        const dbKey = this.#keyOfContentUrl(ns!.contentUrl);
        if (dbKey !== undefined && dbKey !== key) this.#moveTree(dbKey, key);
        if (type === 'FILE')
          this.local.set(key, {
            kind: 'FILE',
            contentUrl: ns!.contentUrl,
            content: await this.#download(ns!.contentUrl, ns!.name),
          });
        return;
      }
      case 'cdmi_delete':
        for (const k of [...this.local.keys()]) if (k === key || k.startsWith(`${key}/`)) this.local.delete(k);
        return;
      case 'cdmi_rename': {
        const dbKey = this.#keyOfContentUrl(ns!.contentUrl);
        if (dbKey !== undefined && dbKey !== key) this.#moveTree(dbKey, key);
        return;
      }
    }
  }
}

/** The remote tree as the same map (no content URLs compared): read through the REST listings. */
export async function remoteTree(
  app: Express,
  user: string,
  password: string,
): Promise<Map<string, Omit<LocalEntry, 'contentUrl'>>> {
  const out = new Map<string, Omit<LocalEntry, 'contentUrl'>>();
  const get = (path: string) => request(app).get(path).auth(user, password).set(REST('', '1'));
  const root = readXml((await get('/v2').expect(200)).text).cloud.rootContainer.container.contents['@_xlink:href'];
  const walk = async (contents: string, prefix: string): Promise<void> => {
    const list = readXml((await get(pathOf(contents)).expect(200)).text)['file-list'];
    for (const item of asArray(list.container)) {
      out.set(prefix + item.container.name, { kind: 'DIRECTORY' });
      await walk(item.container.contents['@_xlink:href'], `${prefix}${item.container.name}/`);
    }
    for (const item of asArray(list.file)) {
      const f = item.file as typeof item.file & { content: { '@_xlink:href': string } };
      const body = await get(pathOf(f.content['@_xlink:href'])).buffer(true).parse(binaryParser).expect(200);
      out.set(prefix + f.name, { kind: 'FILE', content: (body.body as Buffer).toString('utf8') });
    }
  };
  await walk(root, '');
  return out;
}

/** The local map without content URLs, to compare with remoteTree. */
export function localTree(client: MezeoSyncClient): Map<string, Omit<LocalEntry, 'contentUrl'>> {
  return new Map(
    [...client.local].map(([k, e]) => [k, e.kind === 'FILE' ? { kind: e.kind, content: e.content } : { kind: e.kind }]),
  );
}
