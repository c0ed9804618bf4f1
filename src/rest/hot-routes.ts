import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CloudStore } from '../domain/cloud-store.js';
import { parseBasicAuth, sameSecret } from '../http/auth.js';
import type { RequestWatch } from '../http/request-log.js';
import { requestOrigin } from '../http/request-origin.js';
import { buildXml, type XmlNode } from '../xml/codec.js';
import { hotContent, isContentUrl } from './hot-content.js';
import { entityTagOf, fileEntity, fileListEntity } from '../xml/entities.js';
import { Links } from '../xml/links.js';
import { MEDIA, depthOf } from './request-params.js';
import { itemView, metadataKeysAt } from './views.js';
import { LISTING_SLICE } from './listing-slices.js';

/** What the pre-dispatch needs of the layers in front of the emulator, each asked in its plain form. */
export interface QuietPath {
  /** True when this Host may be answered (the DNS-rebinding check of http/host-check.ts). */
  hostAllowed(host: string | undefined): boolean;
  /** The logins and passwords Basic auth accepts now. */
  users(): ReadonlyMap<string, string>;
  /** Admits a request answered in this tick if the scenario has nothing to do; its name, or undefined. */
  admitQuiet(res: ServerResponse): string | undefined;
  /** Journals the request (plain node:http objects). */
  journal(req: IncomingMessage, res: ServerResponse, path: string, scenario: string): void;
  /** The request log, when lines go somewhere. */
  log?: RequestWatch;
  publicUrl?: string;
}

/** Answers a request completely and says true, or says false having done nothing at all. */
export type PreDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

const FILE = /^\/v2\/files\/([\w-]+)$/;
const CONTENTS = /^\/v2\/containers\/([\w-]+)\/contents$/;
const FILE_TYPE = `${MEDIA.file}; charset=utf-8`;
const LIST_TYPE = `${MEDIA.fileList}; charset=utf-8`;

/**
 * The two REST reads clients send most (a file's entity, a container's contents), answered without
 * express: a CPU profile of the small GET put half its time in express's two apps and their routers
 * (issue 9). Only the plainest form is taken: GET, no query, no conditional header, X-Client-Specification
 * 2, good credentials, an allowed Host, a node that exists, and a scenario with nothing to do (no fault,
 * latency, network conditions or recording, no switch under way). Anything else (every error, 304,
 * HEAD, a warning to log) is declined before any effect and goes the full way through express, which
 * gives the same answer to the same request: the behaviour tests run through both.
 */
export function hotRoutes(store: CloudStore, path: QuietPath): PreDispatch {
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const file = FILE.exec(url);
    const contents = file ? null : CONTENTS.exec(url);
    const content = !file && !contents && isContentUrl(url);
    if (!file && !contents && !content) return false;
    const headers = req.headers;
    if (headers['x-client-specification'] !== '2') return false;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    const user = authorised(headers.authorization, path.users());
    if (user === undefined || !path.hostAllowed(headers.host)) return false;
    if (content) return hotContent(store, path, req, res, user);
    const links = new Links(requestOrigin(req, path.publicUrl));
    const depth = depthOf(req);
    let entity: XmlNode;
    try {
      if (file) {
        const node = store.get(user, file[1]!, 'file');
        entity = fileEntity(node, links, metadataKeysAt(node, depth));
      } else {
        const all = store.children(user, contents![1]!);
        // A listing of entities that the full path would cut or make in slices goes the full way.
        if (depth >= 1 && all.length > LISTING_SLICE) return false;
        const items = all.map((n) => itemView(store, n, depth));
        entity = fileListEntity({ items, start: 0, total: all.length }, links, depth);
      }
    } catch {
      return false; // not found, not a container, someone else's: express words the error
    }
    const scenario = path.admitQuiet(res);
    if (scenario === undefined) return false;
    path.log?.(req, res, url, () => user);
    path.journal(req, res, url, scenario);
    const body = buildXml(entity);
    res.writeHead(200, {
      ETag: entityTagOf(entity)!,
      'Content-Type': file ? FILE_TYPE : LIST_TYPE,
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
    return true;
  };
}

/** The login when the Basic credentials match a configured user (the checks of http/auth.ts). */
export function authorised(header: string | undefined, users: ReadonlyMap<string, string>): string | undefined {
  const creds = parseBasicAuth(header);
  if (!creds) return undefined;
  const expected = users.get(creds.user);
  return expected !== undefined && sameSecret(creds.password, expected) ? creds.user : undefined;
}
