import { onServiceSurface } from '../recording/service-paths.js';
import { DEFAULT_SIDECAR_THRESHOLD } from '../recording/body-capture.js';
import { recordWholeBody, toStoredExchange } from '../recording/exchange-record.js';
import { headerValue, type HeaderMap } from '../recording/format.js';
import { RecordingWriter } from '../recording/recording-io.js';
import { redactedNames } from '../http/redaction.js';
import { headerMapOf, requestBodyOf, responseBodyOf } from './har-entry-parts.js';
import { HarError } from './har-read.js';
import type { Har, HarEntry } from './har-types.js';
import { parseServiceUrl } from '../record/upstream.js';
import type { Progress } from '../options.js';

/** Entries written between two progress reports. */
const ENTRIES_PER_REPORT = 500;

export interface HarImportOptions {
  /** The service's base URL in the capture: only entries under it are kept, its origin becomes {{baseUrl}}. */
  baseUrl: string;
  /** The recording to write (replaced, sidecars included). */
  out: string;
  /** More header and query names never to write, besides the built-in secret names. */
  redact?: string[];
  /** Bodies above this many bytes go to sidecar files (default 64 KiB, as record). */
  sidecarThreshold?: number;
  /** Told how many entries are written, every 500 and at the end (`task: 'import-har'`). */
  onProgress?: (progress: Progress) => void;
}

/** What an import kept and left out, for the one line the command prints. */
export interface HarImportSummary {
  out: string;
  exchanges: number;
  skipped: { otherSite: number; admin: number; unanswered: number; fromCache: number };
  /** Exchanges kept that are not to the service (a web app's own pages and scripts): verify skips them. */
  outsideService: number;
  /** Answers whose body the HAR did not keep: they replay empty. */
  missingBodies: number;
  /** Request bodies the HAR did not keep whole (binary uploads): replay matches them with any body. */
  lostRequestBodies: number;
}

/** An entry ready to write: its stored form, with the bodies that still need a place. */
interface Prepared {
  entry: HarEntry;
  url: string;
  requestBody: Buffer;
  /** The HAR lost the request body's bytes: stored without it, as record stores a body it did not see whole. */
  requestBodyLost: boolean;
  responseBody: Buffer;
  responseHeaders: HeaderMap;
}

type Skip = keyof HarImportSummary['skipped'];

/** Why an entry is not the service's exchange, or its path (and query) under the base URL. */
function placeOf(entry: HarEntry, base: { origin: string; basePath: string }): { skip: Skip } | { url: string } {
  let url: URL;
  try {
    url = new URL(entry.request.url);
  } catch {
    return { skip: 'otherSite' };
  }
  const path = url.pathname;
  if (url.origin !== base.origin) return { skip: 'otherSite' };
  if (base.basePath && path !== base.basePath && !path.startsWith(`${base.basePath}/`)) return { skip: 'otherSite' };
  const own = path.slice(base.basePath.length) || '/';
  // The mock's own admin API (a capture made against a mock) is never the service's.
  if (/^\/__admin(?:\/|$)/i.test(own)) return { skip: 'admin' };
  const status = entry.response.status;
  if (!Number.isInteger(status) || status < 100 || status > 599) return { skip: 'unanswered' };
  // Served from the browser's cache: the server never saw the request.
  if (entry._fromCache) return { skip: 'fromCache' };
  return { url: `${own}${url.search}` };
}

/** Entries in the order they started (a stable sort: equal times keep the file's order). */
function inStartOrder(entries: readonly HarEntry[]): HarEntry[] {
  const time = (e: HarEntry): number => {
    const t = Date.parse(e.startedDateTime);
    return Number.isNaN(t) ? 0 : t;
  };
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => time(a.entry) - time(b.entry) || a.index - b.index)
    .map((x) => x.entry);
}

/**
 * Turns a HAR capture into a recording, as `record` would have written the same exchanges: redacted
 * (Authorization, cookies, tokens in the query and every secret name, never written), normalised
 * (multipart boundary, the base URL's origin as {{baseUrl}}, framing and date headers dropped), large
 * bodies in sidecars. Every entry is checked and prepared before anything is written, so a capture
 * that cannot be imported leaves no file behind.
 */
export async function importHar(har: Har, source: string, options: HarImportOptions): Promise<HarImportSummary> {
  const base = parseServiceUrl(options.baseUrl, '--base-url');
  const redacted = redactedNames(options.redact);
  const threshold = options.sidecarThreshold ?? DEFAULT_SIDECAR_THRESHOLD;
  const summary: HarImportSummary = {
    out: options.out,
    exchanges: 0,
    skipped: { otherSite: 0, admin: 0, unanswered: 0, fromCache: 0 },
    outsideService: 0,
    missingBodies: 0,
    lostRequestBodies: 0,
  };
  const prepared: Prepared[] = [];
  for (const entry of inStartOrder(har.log.entries)) {
    const place = placeOf(entry, base);
    if ('skip' in place) {
      summary.skipped[place.skip] += 1;
      continue;
    }
    if (!onServiceSurface(place.url.split('?')[0]!)) summary.outsideService += 1;
    const { body: responseBody, missing } = responseBodyOf(entry);
    if (missing) summary.missingBodies += 1;
    const responseHeaders = headerMapOf(entry.response.headers);
    // HAR keeps the decoded body: its Content-Encoding no longer describes it.
    if (typeof entry.response.content?.text === 'string') delete responseHeaders['content-encoding'];
    const { body: requestBody, lost } = requestBodyOf(entry);
    if (lost) summary.lostRequestBodies += 1;
    prepared.push({ entry, url: place.url, requestBody, requestBodyLost: lost, responseBody, responseHeaders });
  }
  if (prepared.length === 0)
    throw new HarError(source, `no entry is under ${options.baseUrl} (is --base-url the service's address?)`);

  const firstStart = prepared.map((p) => Date.parse(p.entry.startedDateTime)).find((t) => !Number.isNaN(t));
  // The recording is as old as what it shows: the capture's first request.
  const created = new Date(firstStart ?? Date.now()).toISOString();
  const writer = await RecordingWriter.open(options.out, redacted, false, undefined, created);
  const origins = [base.origin];
  const total = prepared.length;
  const report = (done: number): void =>
    options.onProgress?.({ task: 'import-har', done, total, unit: 'entries', finished: done === total });
  for (const [index, p] of prepared.entries()) {
    if (index > 0 && index % ENTRIES_PER_REPORT === 0) report(index);
    const id = writer.reserveId();
    const requestHeaders = headerMapOf(p.entry.request.headers);
    // Some tools give a body's type only in postData.mimeType; matching needs it as the header.
    const postType = p.entry.request.postData?.mimeType;
    if (p.requestBody.length > 0 && postType && requestHeaders['content-type'] === undefined)
      requestHeaders['content-type'] = postType;
    const store = (body: Buffer, type: string | undefined, side: 'request' | 'response') =>
      recordWholeBody(body, type, side, { redacted, origins, threshold, sidecar: () => writer.sidecar(id, side) });
    const stored = toStoredExchange(
      {
        id,
        method: p.entry.request.method,
        url: p.url,
        requestHeaders,
        requestBody: p.requestBodyLost
          ? undefined
          : await store(p.requestBody, headerValue(requestHeaders, 'content-type'), 'request'),
        status: p.entry.response.status,
        responseHeaders: p.responseHeaders,
        responseBody: await store(p.responseBody, headerValue(p.responseHeaders, 'content-type'), 'response'),
        partialBody: p.requestBodyLost,
      },
      redacted,
      origins,
    );
    // A login the HAR names only in our own field (a HAR csp-mock exported has no Authorization).
    if (stored.user === undefined && typeof p.entry._user === 'string' && p.entry._user) stored.user = p.entry._user;
    if (stored.session === undefined && typeof p.entry._session === 'string' && p.entry._session)
      stored.session = p.entry._session;
    await writer.add(stored);
  }
  await writer.flush();
  if (writer.stopped) throw new Error(writer.stopped);
  report(total);
  summary.exchanges = prepared.length;
  return summary;
}
