import { Router, type Request, type Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { NotificationQueues } from '../domain/change-events/notification-queues.js';
import { notFound } from '../domain/errors.js';
import { unsupportedMediaType } from '../http/errors.js';
import { mediaTypeOf } from '../http/media-type.js';
import { entityOf, param, resource, userOf, weakTag } from '../rest/request-params.js';
import { storeOf } from '../http/service-context.js';
import { cdmiFieldsOf, valuesCountOf } from './cdmi-query.js';
import {
  CDMI_VERSION,
  MEDIA_CDMI,
  QUEUE_DOCUMENT_TYPES,
  parseQueueDocument,
  queueObject,
  queueParentObject,
  valuesOf,
} from './queue-documents.js';

/** The address of a user's queue container, as CDMI parentURI values name it. */
const queueParentOf = (user: string): string => `/cdmi/${encodeURIComponent(user)}`;

const VERSION = { 'X-CDMI-Specification-Version': CDMI_VERSION };
const NO_CONTENT: Answer = { status: 204, headers: VERSION };

function cdmiAnswer(mediaType: string, body: unknown, status = 200, location?: string): Answer {
  const text = JSON.stringify(body);
  const headers = { ...VERSION, 'Content-Type': `${mediaType}; charset=utf-8`, ETag: weakTag(text) };
  return { status, headers: location ? { ...headers, Location: location } : headers, body: text };
}

/** The logged-in user, when the path's user segment names them; anyone else's container does not exist. */
function ownerOf(req: Request, res: Response): string {
  const user = userOf(res);
  if (req.params['user'] !== user) throw notFound('container', `no CDMI container at ${req.originalUrl.split('?')[0]}`);
  return user;
}

/**
 * CDMI notification queues under /cdmi (the management address of the cloud2 entry document):
 * /cdmi/<user> is the user's queue container, /cdmi/<user>/<queue> a queue. Reads and writes go to the
 * store's NotificationQueues; the events in them come from every change the store commits. One router
 * serves every mock: each request reads its mock's store (rest/service-context.ts).
 */
export function cdmiRouter(): Router {
  const router = Router({ caseSensitive: true });
  const queuesOf = (res: Response): NotificationQueues => storeOf(res).notificationQueues;

  resource(router, '/', {
    GET: (_req, res) =>
      cdmiAnswer(MEDIA_CDMI.container, {
        objectType: MEDIA_CDMI.container,
        objectName: 'cdmi/',
        parentURI: '/',
        completionStatus: 'Complete',
        metadata: {},
        childrenrange: '0-0',
        children: [encodeURIComponent(userOf(res))],
      }),
  });

  resource(router, ['/:user', '/:user/'], {
    GET: (req, res) => {
      const user = ownerOf(req, res);
      const names = queuesOf(res)
        .list(user)
        .map((q) => q.name);
      return cdmiAnswer(
        MEDIA_CDMI.container,
        queueParentObject(encodeURIComponent(user), storeOf(res).root(user).id, names),
      );
    },
  });

  resource(router, '/:user/:queue', {
    GET: (req, res) => {
      const user = ownerOf(req, res);
      const parent = queueParentOf(user);
      const queue = queuesOf(res).get(user, param(req, 'queue'));
      const fields = cdmiFieldsOf(req);
      const count = valuesCountOf(fields);
      const whole = queueObject(queue, parent);
      const named = fields.filter((f) => f in whole);
      if (count === undefined && named.length === 0) return cdmiAnswer(MEDIA_CDMI.queue, whole);
      const body: Record<string, unknown> = {};
      for (const field of named) body[field] = whole[field];
      if (count !== undefined) body['value'] = valuesOf(queue, count, parent);
      return cdmiAnswer(MEDIA_CDMI.queue, body);
    },
    PUT: async (req, res) => {
      const user = ownerOf(req, res);
      const type = mediaTypeOf(req.headers['content-type']);
      if (type !== '' && !QUEUE_DOCUMENT_TYPES.includes(type)) throw unsupportedMediaType(type, QUEUE_DOCUMENT_TYPES);
      const parent = queueParentOf(user);
      const spec = parseQueueDocument(await entityOf(req, res), parent);
      const { queue, created } = await queuesOf(res).create(user, param(req, 'queue'), spec);
      if (!created) return NO_CONTENT;
      // Under the mount the request came by (a tenant's /t/<name>); parentURI values stay the mock's own.
      const location = `${req.baseUrl}/${encodeURIComponent(user)}/${encodeURIComponent(queue.name)}`;
      return cdmiAnswer(MEDIA_CDMI.queue, queueObject(queue, parent), 201, location);
    },
    DELETE: async (req, res) => {
      const user = ownerOf(req, res);
      const name = param(req, 'queue');
      const count = valuesCountOf(cdmiFieldsOf(req));
      if (count === undefined) await queuesOf(res).delete(user, name);
      else await queuesOf(res).acknowledge(user, name, count);
      return NO_CONTENT;
    },
  });

  return router;
}
