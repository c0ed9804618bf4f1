import type { Request, Response } from 'express';
import { storeOf } from '../http/service-context.js';
import type { NodeKind } from '../domain/model.js';
import { metadataEntity, tagListEntity } from '../xml/entities.js';
import { parseTagInfo } from '../xml/requests.js';
import { unsupportedMediaType } from '../http/errors.js';
import { rawBodyReader } from '../http/raw-body-reader.js';
import {
  MEDIA,
  NO_CONTENT,
  createdAnswer,
  entityOf,
  linksOf,
  requestMediaType,
  pageOf,
  param,
  resource,
  weakTag,
  xmlAnswer,
  userOf,
  type RestRoutes,
} from './request-params.js';
import { notFound } from '../domain/errors.js';

const KINDS: Array<[string, NodeKind]> = [
  ['containers', 'container'],
  ['files', 'file'],
];

/** Raw metadata values (a few MiB is plenty for key/value metadata). */
const readRawValue = rawBodyReader('4mb');

/**
 * Each object's own tags and metadata links (inferred shapes: no wire example survives).
 * Tags: GET lists, POST a tag-info entity applies, PUT <tags>/<name> applies, DELETE removes.
 * Metadata: GET lists metadata-item links; PUT/GET/DELETE <metadata>/<key> with the raw value.
 */
export function annotationsRouter(router: RestRoutes): void {
  for (const [segment, kind] of KINDS) {
    const base = `/${segment}/:id`;
    const subject = (req: Request, res: Response) => storeOf(res).get(userOf(res), param(req, 'id'), kind);

    resource(router, `${base}/tags`, {
      GET: (req, res) =>
        xmlAnswer(MEDIA.tagList, tagListEntity(pageOf(req, [...subject(req, res).tags].sort()), linksOf(res))),
      POST: async (req, res) => {
        const body = await entityOf(req, res);
        if (requestMediaType(req) !== MEDIA.tag) throw unsupportedMediaType(requestMediaType(req), [MEDIA.tag]);
        const { name } = parseTagInfo(body);
        await storeOf(res).annotations.addTag(userOf(res), param(req, 'id'), name ?? '');
        return createdAnswer(linksOf(res).tag(name!.normalize('NFC')));
      },
    });

    resource(router, `${base}/tags/:tag`, {
      PUT: async (req, res) => {
        await storeOf(res).annotations.addTag(userOf(res), param(req, 'id'), param(req, 'tag'));
        return NO_CONTENT;
      },
      DELETE: async (req, res) => {
        await storeOf(res).annotations.removeTag(userOf(res), param(req, 'id'), param(req, 'tag'));
        return NO_CONTENT;
      },
    });

    resource(router, `${base}/metadata`, {
      GET: (req, res) =>
        xmlAnswer(
          MEDIA.other('metadata'),
          metadataEntity(linksOf(res).resource(kind, param(req, 'id')), subject(req, res).metadata),
        ),
    });

    resource(router, `${base}/metadata/:key`, {
      GET: (req, res) => {
        const { metadata } = subject(req, res);
        const key = param(req, 'key');
        if (!Object.hasOwn(metadata, key)) throw notFound('metadata item');
        const value = metadata[key]!;
        return {
          status: 200,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', ETag: weakTag(value) },
          body: value,
        };
      },
      PUT: async (req, res) => {
        const value = (await entityOf(req, res, readRawValue)).toString('utf8');
        await storeOf(res).annotations.setMetadata(userOf(res), param(req, 'id'), param(req, 'key'), value);
        return NO_CONTENT;
      },
      DELETE: async (req, res) => {
        await storeOf(res).annotations.deleteMetadata(userOf(res), param(req, 'id'), param(req, 'key'));
        return NO_CONTENT;
      },
    });
  }
}
