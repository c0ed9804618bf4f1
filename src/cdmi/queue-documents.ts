import type { QueueSpec } from '../domain/change-events/notification-queues.js';
import { scopePathOf } from '../domain/change-events/queue-events.js';
import type { ChangeEvent, QueueRecord } from '../domain/model.js';
import { badRequest } from '../http/errors.js';

/**
 * CDMI 1.0.x JSON for notification queues (ISO/IEC 17826, "Queue objects", "Notification queues"),
 * in the shapes the service's own sync client reads: the queue object, its `queueValues` range, and
 * each value as a JSON string holding one event.
 */

export const CDMI_VERSION = '1.0.1';
export const MEDIA_CDMI = {
  queue: 'application/cdmi-queue',
  container: 'application/cdmi-container',
  object: 'application/cdmi-object',
} as const;
/** The media types a queue document may come as: the client's, CDMI 1.0.2's, or plain JSON. */
export const QUEUE_DOCUMENT_TYPES = [MEDIA_CDMI.queue, 'application/vnd.org.snia.cdmi.queue+json', 'application/json'];
const DOMAIN_URI = '/cdmi_domains/';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a queue-creating document. `queueParent` is the address of the user's queue container
 * ("/cdmi/<user>"): a scope `parentURI` "starts <prefix>" is kept as the part of the prefix below it.
 */
export function parseQueueDocument(body: Buffer, queueParent: string): QueueSpec {
  const hint = 'send {"metadata": {"cdmi_queue_type": "cdmi_notification_queue", "cdmi_notification_events": [...]}}';
  if (body.length === 0) throw badRequest(`the queue document is empty: ${hint}`);
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`the queue document is not JSON (${(err as Error).message}): ${hint}`);
  }
  if (!isObject(doc) || !isObject(doc['metadata']))
    throw badRequest(`the queue document has no "metadata" object: ${hint}`);
  const metadata = doc['metadata'];
  if (metadata['cdmi_queue_type'] !== 'cdmi_notification_queue') {
    throw badRequest(
      `only notification queues are served: metadata.cdmi_queue_type must be "cdmi_notification_queue", got ${JSON.stringify(metadata['cdmi_queue_type'])}`,
    );
  }
  const events = metadata['cdmi_notification_events'];
  if (!Array.isArray(events) || events.some((e) => typeof e !== 'string')) {
    throw badRequest('metadata.cdmi_notification_events must be a list of event names (e.g. "cdmi_create_complete")');
  }
  const results = metadata['cdmi_results_specification'];
  if (results !== undefined && !isObject(results))
    throw badRequest('metadata.cdmi_results_specification must be an object');
  return { events: events as string[], scope: scopeOf(metadata['cdmi_scope_specification'], queueParent), metadata };
}

/** The scope as path prefixes below the queue parent; null when the document gives none (everything). */
function scopeOf(spec: unknown, queueParent: string): string[] | null {
  if (spec === undefined) return null;
  if (!Array.isArray(spec) || !spec.every(isObject)) {
    throw badRequest(
      'metadata.cdmi_scope_specification must be a list of objects like {"parentURI": "starts /cdmi/<user>"}',
    );
  }
  const prefixes: string[] = [];
  for (const clause of spec) {
    for (const [field, condition] of Object.entries(clause)) {
      if (field !== 'parentURI') throw badRequest(`a scope on "${field}" is not served; scope on parentURI`);
      const match = typeof condition === 'string' ? /^starts (.*)$/.exec(condition) : null;
      if (!match)
        throw badRequest(`scope ${JSON.stringify(condition)}: the served form is "starts <parentURI prefix>"`);
      const prefix = match[1]!;
      // A prefix above the queue parent takes the whole tree; one below it takes that subtree; any other takes nothing.
      if (queueParent.startsWith(prefix)) prefixes.push('/');
      else if (prefix.startsWith(`${queueParent}/`)) prefixes.push(prefix.slice(queueParent.length));
    }
  }
  return prefixes;
}

/** "<first>-<last>" of the values in the queue, or "" when it is empty. */
const queueValuesRange = (queue: QueueRecord): string =>
  queue.values.length === 0 ? '' : `${queue.values[0]!.seq}-${queue.values[queue.values.length - 1]!.seq}`;

/** The event as the client reads it; `results` (the queue's cdmi_results_specification) picks the fields. */
function eventJson(event: ChangeEvent, queueParent: string, results?: unknown): string {
  const full: Json = {
    cdmi_event: event.event,
    cdmi_event_result: 'cdmi_success',
    cdmi_event_time: new Date(event.time * 1000).toISOString(),
    cdmi_event_user: event.user,
    objectID: event.objectId,
    objectName: event.name,
    objectType: event.kind === 'container' ? MEDIA_CDMI.container : MEDIA_CDMI.object,
    parentURI: `${queueParent}${scopePathOf(event.parentPath)}`,
    parentID: event.parentId ?? '',
    domainURI: DOMAIN_URI,
    metadata: {
      // Unencoded, as the service sent it: the client URL-encodes it whole for its namespace read.
      mezeo_exported_path: [...event.parentPath, event.name].join('/'),
      cdmi_size: String(event.bytes),
      cdmi_hash: event.contentTag,
    },
  };
  return JSON.stringify(isObject(results) && Object.keys(results).length > 0 ? pick(full, results) : full);
}

function pick(full: Json, spec: Json): Json {
  const out: Json = {};
  for (const key of Object.keys(spec)) {
    const value = full[key];
    if (value === undefined) continue;
    out[key] =
      isObject(value) && isObject(spec[key]) && Object.keys(spec[key]).length > 0 ? pick(value, spec[key]) : value;
  }
  return out;
}

/** The oldest `count` values, each a JSON string. */
export const valuesOf = (queue: QueueRecord, count: number, queueParent: string): string[] =>
  queue.values
    .slice(0, count)
    .map((v) => eventJson(v.event, queueParent, queue.metadata['cdmi_results_specification']));

/** The whole queue object. The mock's bound and what it dropped are shown in its metadata. */
export function queueObject(queue: QueueRecord, queueParent: string): Json {
  return {
    objectType: MEDIA_CDMI.queue,
    objectID: queue.id,
    objectName: queue.name,
    parentURI: `${queueParent}/`,
    domainURI: DOMAIN_URI,
    capabilitiesURI: '/cdmi_capabilities/queue/',
    completionStatus: 'Complete',
    metadata: { ...queue.metadata, csp_mock_values_limit: queue.limit, csp_mock_values_dropped: queue.dropped },
    queueValues: queueValuesRange(queue),
  };
}

/** The user's queue container, which the management address names: its parentURI + objectName is itself. */
export function queueParentObject(userSegment: string, rootId: string, queueNames: string[]): Json {
  return {
    objectType: MEDIA_CDMI.container,
    objectID: rootId,
    objectName: userSegment,
    parentURI: '/cdmi/',
    domainURI: DOMAIN_URI,
    capabilitiesURI: '/cdmi_capabilities/container/',
    completionStatus: 'Complete',
    metadata: {},
    childrenrange: queueNames.length === 0 ? '' : `0-${queueNames.length - 1}`,
    children: queueNames,
  };
}
