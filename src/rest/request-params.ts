import type { IRoute, Request, RequestHandler, Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { buildXml, type XmlNode } from '../xml/codec.js';
import type { EntityText, EntityTexts, Page } from '../xml/entities.js';
import { serviceOf, storeOf } from '../http/service-context.js';
import { requestOrigin } from '../http/request-origin.js';
import { digest } from '../xml/entity-tags.js';
import { answering, type Answer, type AnswerRoute } from '../http/answer.js';
import { Links } from '../xml/links.js';
import { invalid } from '../domain/errors.js';
export { userOf } from '../http/auth.js';
import { badRequest, methodNotAllowed } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';
import { rawBodyReader } from '../http/raw-body-reader.js';

/** Absolute links for the origin the client reached (--public-url, else the request's Host), made on first use. */
export function linksOf(res: Response): Links {
  const { publicUrl, mountPath } = serviceOf(res);
  return (res.locals.links ??= new Links(requestOrigin(res.req, publicUrl, mountPath)));
}

/** X-Cloud-Depth: 0 (default) links only, 1 wraps entities, 2 inlines a container's contents. */
export function depthOf(req: { headers: IncomingHttpHeaders }): number {
  const n = Number.parseInt(String(req.headers['x-cloud-depth'] ?? '0'), 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 2) : 0;
}

/** The media type without parameters, lowercased; undefined when absent. */
export function requestMediaType(req: Request): string | undefined {
  return mediaTypeOf(req.headers['content-type']) || undefined;
}

function nonNegativeInt(req: Request, name: string): number | undefined {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < 0)
    throw badRequest(`${name} must be a non-negative integer`);
  return n;
}

/** Paging by ?start=N&count=M (inferred from the count/start/total attributes); no count: to the end. */
export function pageBoundsOf(req: Request): { start: number; count: number | undefined } {
  return { start: nonNegativeInt(req, 'start') ?? 0, count: nonNegativeInt(req, 'count') };
}

export function pageOf<T>(req: Request, all: T[]): Page<T> {
  const { start, count } = pageBoundsOf(req);
  const items = all.slice(start, count === undefined ? undefined : start + count);
  return { items, start, total: all.length };
}

/** ?filterField=name&filterOperation=ILIKE&filterValue=Pi: case-insensitive substring of the name. */
export function nameFilterOf(req: Request): ((name: string) => boolean) | undefined {
  const { filterField, filterOperation, filterValue } = req.query;
  if (filterField === undefined && filterValue === undefined) return undefined;
  if (filterField !== 'name') throw badRequest('filterField must be "name"');
  const value = typeof filterValue === 'string' ? filterValue : '';
  const op = typeof filterOperation === 'string' ? filterOperation.toUpperCase() : 'ILIKE';
  switch (op) {
    case 'ILIKE':
      return (name) => name.toLowerCase().includes(value.toLowerCase());
    case 'LIKE':
      return (name) => name.includes(value);
    case 'EQ':
      return (name) => name === value;
    default:
      throw badRequest('filterOperation must be ILIKE, LIKE or EQ');
  }
}

/**
 * An entity's answer. Its ETag is the entity's own tag when it has one (a file's, made from the node);
 * other entities get a weak tag of their text. A 200 the client has is 304 (sendAnswer).
 */
export function xmlTextAnswer(mediaType: string, text: string, tag = weakTag(text)): Answer {
  return { status: 200, headers: { 'Content-Type': `${mediaType}; charset=utf-8`, ETag: tag }, body: text };
}

export const xmlAnswer = (mediaType: string, entity: XmlNode): Answer => xmlTextAnswer(mediaType, buildXml(entity));

/** Where this mock keeps entity texts between requests (the store's one bounded cache). */
export const entityTexts = (res: Response): EntityTexts => storeOf(res).shelf<EntityText>('entity-text');

/** A weak entity tag of a text, as express gives a body it sends. */
export const weakTag = (text: string): string => `W/"${Buffer.byteLength(text).toString(16)}-${digest(text)}"`;

/** 201 with the new address as the body followed by CRLF, and in Location, as clients read either. */
export function createdAnswer(href: string): Answer {
  return { status: 201, headers: { Location: href, 'Content-Type': 'text/uri-list' }, body: `${href}\r\n` };
}

export const NO_CONTENT: Answer = { status: 204 };

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** Where a resource module adds its routes (rest/index.ts: under /v2 of the service's one router). */
export interface RestRoutes {
  route(path: string | string[]): IRoute;
}

/**
 * A resource's routes: each method's answer (GET serves HEAD too), and 405 with Allow for any other
 * method (`allow`: when a method answers 405 itself unless a scenario deviates).
 */
export function resource(
  router: RestRoutes,
  path: string | string[],
  methods: Partial<Record<Method, AnswerRoute>>,
  allow = Object.keys(methods),
): void {
  const route = router.route(path);
  for (const [method, answer] of Object.entries(methods))
    route[method.toLowerCase() as Lowercase<Method>](answering(answer));
  route.all(only(...allow));
}

/** The id from an address of the given kind, absolute or a path; also accepts the container's /contents. */
export function idFromHref(href: string | undefined, kind: 'containers' | 'files'): string | undefined {
  if (!href) return undefined;
  let path = href.trim();
  try {
    path = new URL(path, 'http://placeholder').pathname;
  } catch {
    return undefined;
  }
  const match = new RegExp(`/v2/${kind}/([^/]+)(?:/contents)?/?$`).exec(path);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined; // bad percent-encoding (URIError) names no object: the caller's 400
  }
}

/** The container a <parent xlink:href> names (a move), or undefined when the entity has no parent link. */
export function parentIdFrom(href: string | undefined): string | undefined {
  if (href === undefined) return undefined;
  const id = idFromHref(href, 'containers');
  if (!id) throw invalid(`parent must link to a container, got "${href}"`);
  return id;
}

/** Reads a small XML entity into req.body as a Buffer (1 MiB is far above any entity). */
export const readEntityBody: RequestHandler = rawBodyReader('1mb');

export function bodyBuffer(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** The request's body, read whole by `read` (by default a small entity's reader). */
export function entityOf(req: Request, res: Response, read: RequestHandler = readEntityBody): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    read(req, res, (err?: unknown) => (err ? reject(err) : resolve(bodyBuffer(req)))),
  );
}

/** 405 with Allow for any method a route does not serve. */
export function only(...allow: string[]): RequestHandler {
  const allowed = allow.includes('GET') ? [...allow, 'HEAD'] : allow;
  return (_req, _res, next) => next(methodNotAllowed(allowed));
}

export const MEDIA = {
  cloud: 'application/vnd.csp.cloud+xml',
  container: 'application/vnd.csp.container-info+xml',
  file: 'application/vnd.csp.file-info+xml',
  fileList: 'application/vnd.csp.file-list+xml',
  tag: 'application/vnd.csp.tag-info+xml',
  tagList: 'application/vnd.csp.tag-list+xml',
  account: 'application/vnd.csp.account-info+xml',
  multipart: 'multipart/form-data',
  other: (name: string): string => `application/vnd.csp.${name}+xml`,
} as const;

/** A named route parameter as one string (express types allow arrays for wildcards). */
export function param(req: Request, name: string): string {
  const value = req.params[name] as string | string[] | undefined;
  return Array.isArray(value) ? value.join('/') : (value ?? '');
}
