import { request as httpRequest } from 'node:http';
import request from 'supertest';
import type { Express } from 'express';
import { AUTH, asArray, readXml } from '../../helpers/cloud.js';
import type { DavPropValue } from '../../helpers/xml-documents.js';

/** A supertest request with any WebDAV method, authenticated as the demo user; bodies read as text. */
export function dav(app: Express, method: string, path: string, auth: { user: string; password: string } = AUTH) {
  const agent = request(app) as unknown as Record<string, (path: string) => request.Test>;
  const send = agent[method.toLowerCase()];
  if (!send) throw new Error(`supertest has no method ${method}`);
  return send.call(agent, path).auth(auth.user, auth.password).buffer(true);
}

export interface PropResponse {
  href: string;
  /** property name (with its prefix as sent, e.g. "D:getetag") -> { status, value } */
  props: Record<string, { status: number; value: DavPropValue }>;
}

/** Reads a 207 multistatus into one entry per response. */
export function readMultistatus(text: string): PropResponse[] {
  const ms = readXml(text)['D:multistatus'];
  return asArray(ms['D:response']).map((r) => {
    const props: PropResponse['props'] = {};
    for (const ps of asArray(r['D:propstat'])) {
      const status = Number(/HTTP\/1\.1 (\d+)/.exec(ps['D:status'])![1]);
      for (const [name, value] of Object.entries(ps['D:prop'] ?? {}))
        props[name] = { status, value: plainValue(value) };
    }
    return { href: r['D:href'], props };
  });
}

/** A text-only element with attributes (xmlns="...") reads as its text. */
function plainValue(value: DavPropValue): DavPropValue {
  if (value && typeof value === 'object' && Object.keys(value).every((k) => k === '#text' || k.startsWith('@_'))) {
    return value['#text'] ?? '';
  }
  return value;
}

export const PROPFIND_ALL = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';

export function propfindBody(...props: string[]): string {
  return `<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop>${props.map((p) => `<d:${p}/>`).join('')}</d:prop></d:propfind>`;
}

/** The REST id of the object at a /dav path, read through the store (the same store REST uses). */
export function lastSegment(href: string): string {
  const parts = href.replace(/\/$/, '').split('/');
  return decodeURIComponent(parts[parts.length - 1]!);
}

/** Sends a request with the path exactly as given (e.g. with a raw "#"), as neon-based clients do. */
export function rawStatus(baseUrl: string, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/`, {
      method,
      path,
      headers: { Authorization: `Basic ${Buffer.from(`${AUTH.user}:${AUTH.password}`).toString('base64')}` },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}
