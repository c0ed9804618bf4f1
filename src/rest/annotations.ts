import { Router, type Response } from 'express';
import { storeOf } from '../http/service-context.js';
import type { NodeKind } from '../domain/model.js';
import { metadataEntity, tagListEntity } from '../xml/entities.js';
import { parseTagInfo } from '../xml/requests.js';
import { unsupportedMediaType } from '../http/errors.js';
import { rawBodyReader } from '../http/raw-body-reader.js';
import {
  MEDIA,
  bodyBuffer,
  linksOf,
  requestMediaType,
  only,
  pageOf,
  readEntityBody,
  param,
  sendCreated,
  sendXml,
  userOf,
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
export function annotationsRouter(router: Router = Router()): Router {
  for (const [segment, kind] of KINDS) {
    const base = `/${segment}/:id`;
    const subject = (res: Response, id: string) => storeOf(res).get(userOf(res), id, kind);

    router
      .route(`${base}/tags`)
      .get((req, res) => {
        const node = subject(res, param(req, 'id'));
        sendXml(res, MEDIA.tagList, tagListEntity(pageOf(req, [...node.tags].sort()), linksOf(res)));
      })
      .post(readEntityBody, async (req, res) => {
        if (requestMediaType(req) !== MEDIA.tag) throw unsupportedMediaType(requestMediaType(req), [MEDIA.tag]);
        const { name } = parseTagInfo(bodyBuffer(req));
        await storeOf(res).annotations.addTag(userOf(res), param(req, 'id'), name ?? '');
        sendCreated(res, linksOf(res).tag(name!.normalize('NFC')));
      })
      .all(only('GET', 'POST'));

    router
      .route(`${base}/tags/:tag`)
      .put(async (req, res) => {
        await storeOf(res).annotations.addTag(userOf(res), param(req, 'id'), param(req, 'tag'));
        res.status(204).end();
      })
      .delete(async (req, res) => {
        await storeOf(res).annotations.removeTag(userOf(res), param(req, 'id'), param(req, 'tag'));
        res.status(204).end();
      })
      .all(only('PUT', 'DELETE'));

    router
      .route(`${base}/metadata`)
      .get((req, res) => {
        const node = subject(res, param(req, 'id'));
        sendXml(res, MEDIA.other('metadata'), metadataEntity(linksOf(res).resource(kind, node.id), node.metadata));
      })
      .all(only('GET'));

    router
      .route(`${base}/metadata/:key`)
      .get((req, res) => {
        const node = subject(res, param(req, 'id'));
        if (!Object.hasOwn(node.metadata, param(req, 'key'))) throw notFound('metadata item');
        res.type('text/plain; charset=utf-8').send(node.metadata[param(req, 'key')]);
      })
      .put(readRawValue, async (req, res) => {
        await storeOf(res).annotations.setMetadata(
          userOf(res),
          param(req, 'id'),
          param(req, 'key'),
          bodyBuffer(req).toString('utf8'),
        );
        res.status(204).end();
      })
      .delete(async (req, res) => {
        await storeOf(res).annotations.deleteMetadata(userOf(res), param(req, 'id'), param(req, 'key'));
        res.status(204).end();
      })
      .all(only('GET', 'PUT', 'DELETE'));
  }
  return router;
}
