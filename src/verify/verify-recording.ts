import { randomBytes } from 'node:crypto';
import { createApp } from '../app.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { InProcessHttp, type PlainResponse } from '../http/in-process-http.js';
import { isText } from '../recording/body-encoding.js';
import { headerValue, type Exchange, type Recording } from '../recording/format.js';
import { IdMap } from '../recording/id-map.js';
import { recordingStartState, startsOnExistingAccount } from '../recording/recording-start.js';
import { seedFromRecordedTree } from '../recording/seed-from-recording.js';
import { carriesLinks, fromToken, mapHeaderValues, toToken } from '../recording/normalise.js';
import { onServiceSurface } from '../recording/service-paths.js';
import { compareXml, parseOrdered } from '../recording/xml-compare.js';
import { compareCdmiJson, isCdmiJson } from './cdmi-compare.js';
import type { Progress } from '../options.js';

/** Exchanges replayed between two progress reports. */
const EXCHANGES_PER_REPORT = 100;

/** Response headers whose value a client acts on; the others (ETag, Last-Modified, Date...) vary by nature. */
const COMPARED_HEADERS = ['content-type', 'location', 'content-range', 'allow', 'connection'];
/** The emulator's base URL during verify; never leaves the process. */
const VERIFY_ORIGIN = 'http://verify.csp-mock.invalid';

export interface VerifyOptions {
  /**
   * The fresh emulator's starting state: 'recording' (the account as the recording found it), 'empty'
   * or 'demo'. Default 'auto': 'recording' when the recording works on objects it did not create, else 'empty'.
   */
  seed?: VerifySeed;
  /** The scenario the fresh emulator runs (a name, a path or an inline scenario; default 'default'). */
  scenario?: string | ScenarioDefinition;
  /** Response headers to compare (default COMPARED_HEADERS). */
  headers?: string[];
  /** Told how many exchanges are done, every 100 and at the end (`task: 'verify'`). */
  onProgress?: (progress: Progress) => void;
}

export interface ExchangeDifference {
  id: number;
  method: string;
  path: string;
  differences: string[];
}

export type VerifySeed = 'auto' | 'recording' | 'empty' | 'demo';

/** An exchange verify did not send, and why. */
export interface SkippedExchange {
  id: number;
  method: string;
  path: string;
  reason: string;
}

export interface VerifyReport {
  /** The start state used ('auto' resolved). */
  seed: Exclude<VerifySeed, 'auto'>;
  total: number;
  /** Exchanges sent whose answer was the recorded one. */
  matching: number;
  differing: ExchangeDifference[];
  /** Exchanges not sent (not to the service): neither a match nor a difference. */
  skipped: SkippedExchange[];
  /**
   * Whether verify passed: nothing differs, and unless the recording is empty at least one exchange
   * was sent. A recording whose every exchange was skipped proves nothing, so it does not pass; an
   * empty one (a CI run that made no request) has nothing to disagree with, and passes.
   */
  passed: boolean;
  /** Human-readable: one block per differing exchange, the skipped ones grouped, then a summary line. */
  text: string;
}

/** Why an exchange to anything but the service is not sent. */
const NOT_SERVICE =
  "not a service path (/v2, /dav, /cdmi): verify sends only requests to the service, never the admin API, a web app's own pages or a WebDAV server served at /";

/**
 * Replays every recorded request, in order, against a fresh emulator and compares what comes back:
 * status, the headers that matter, and bodies (XML structurally; ids matched up by position, so the
 * emulator's own ids stand in for the recorded ones in later requests; timestamps only as numbers).
 */
export async function verifyRecording(recording: Recording, options: VerifyOptions = {}): Promise<VerifyReport> {
  // Credentials were never recorded: each recorded login gets a throw-away password here.
  const password = randomBytes(9).toString('base64url');
  const logins = new Set(recording.exchanges.map((e) => e.user).filter((u): u is string => !!u));
  if (logins.size === 0) logins.add('demo');
  const users = Object.fromEntries([...logins].map((u) => [u, password]));
  const wanted = options.seed ?? 'auto';
  const seed = wanted === 'auto' ? (startsOnExistingAccount(recording) ? 'recording' : 'empty') : wanted;
  const mock = await createApp({
    users,
    seed: seed === 'demo' ? 'demo' : 'empty',
    publicUrl: VERIFY_ORIGIN,
    scenario: options.scenario,
  });
  if (seed === 'recording') await seedFromRecordedTree(mock.store, recordingStartState(recording));
  const http = new InProcessHttp(mock.app);
  const ids = new IdMap();
  const compared = options.headers ?? COMPARED_HEADERS;
  const differing: ExchangeDifference[] = [];
  const skipped: SkippedExchange[] = [];
  const total = recording.exchanges.length;
  const report = (done: number): void =>
    options.onProgress?.({ task: 'verify', done, total, unit: 'exchanges', finished: done === total });
  try {
    for (const [index, e] of recording.exchanges.entries()) {
      if (index > 0 && index % EXCHANGES_PER_REPORT === 0) report(index);
      if (!onServiceSurface(e.request.path)) {
        skipped.push({ id: e.id, method: e.request.method, path: e.request.path, reason: NOT_SERVICE });
        continue;
      }
      const actual = await http.dispatch(requestFor(e, ids, password));
      const diffs = compare(e, actual, ids, compared);
      if (diffs.length)
        differing.push({ id: e.id, method: e.request.method, path: e.request.path, differences: diffs });
    }
  } finally {
    await mock.close();
  }
  report(total);
  const matching = total - differing.length - skipped.length;
  return {
    seed,
    total,
    matching,
    differing,
    skipped,
    passed: differing.length === 0 && (matching > 0 || skipped.length === 0),
    text: reportText({ total, matching, differing, skipped, seed }),
  };
}

function requestFor(e: Exchange, ids: IdMap, password: string) {
  const mapText = (s: string): string => ids.apply(fromToken(s, VERIFY_ORIGIN));
  const query = e.request.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(mapText(v))}`).join('&');
  const headers = mapHeaderValues(e.request.headers, mapText);
  // The emulator's own host, so a Destination (COPY, MOVE) rebased onto VERIFY_ORIGIN names this server.
  headers['host'] = new URL(VERIFY_ORIGIN).host;
  if (e.user) headers['authorization'] = `Basic ${Buffer.from(`${e.user}:${password}`).toString('base64')}`;
  if (e.session) headers['x-mock-session'] = e.session;
  const contentType = headerValue(e.request.headers, 'content-type');
  const body = carriesLinks(contentType)
    ? Buffer.from(mapText(e.request.body.toString('utf8')), 'utf8')
    : e.request.body;
  return {
    method: e.request.method,
    url: `${ids.apply(e.request.path)}${query ? `?${query}` : ''}`,
    headers,
    body,
  };
}

function compare(e: Exchange, actual: PlainResponse, ids: IdMap, compared: string[]): string[] {
  const out: string[] = [];
  const recorded = e.response;
  if (recorded.status !== actual.status) out.push(`status: expected ${recorded.status}, got ${actual.status}`);
  const tokenised = (s: string): string => toToken(s, [VERIFY_ORIGIN]);
  const recordedLocation = headerValue(recorded.headers, 'location');
  const actualLocation = headerValue(actual.headers, 'location');
  if (recordedLocation && actualLocation) ids.learn(recordedLocation, tokenised(actualLocation));
  const linkBodies = carriesLinks(headerValue(recorded.headers, 'content-type'));
  const expectedText = recorded.body.toString('utf8');
  const actualText = linkBodies ? tokenised(actual.body.toString('utf8')) : actual.body.toString('utf8');
  if (linkBodies) ids.learn(expectedText, actualText);

  for (const name of compared) {
    let want = headerValue(recorded.headers, name);
    let got = headerValue(actual.headers, name);
    if (name === 'connection') {
      // Only "close" is behaviour; keep-alive is the transport's business.
      want = want && /close/i.test(want) ? 'close' : undefined;
      got = got && /close/i.test(got) ? 'close' : undefined;
    }
    if (want !== undefined) want = ids.apply(want);
    if (got !== undefined) got = tokenised(got);
    if (name === 'content-type' && want !== undefined && got !== undefined && sameMediaType(want, got)) continue;
    if (want !== got)
      out.push(
        `header ${name}: expected ${want === undefined ? 'absent' : `"${want}"`}, got ${got === undefined ? 'absent' : `"${got}"`}`,
      );
  }

  if (linkBodies) {
    const a = parseOrdered(ids.apply(expectedText));
    const b = parseOrdered(actualText);
    if (a && b) {
      out.push(...compareXml(a, b).map((d) => `body ${d}`));
      return out;
    }
    if (ids.apply(expectedText) !== actualText) out.push(...textDiff(ids.apply(expectedText), actualText));
    return out;
  }
  if (isCdmiJson(headerValue(recorded.headers, 'content-type'))) {
    const diffs = compareCdmiJson(expectedText, actualText);
    if (diffs) return [...out, ...diffs];
  }
  if (!recorded.body.equals(actual.body)) {
    if (isText(recorded.body) && isText(actual.body)) out.push(...textDiff(expectedText, actualText));
    else out.push(binaryDiff(recorded.body, actual.body));
  }
  return out;
}

/**
 * Two Content-Type values that HTTP says are equal (RFC 9110 8.3.1, 8.3.2): the type, subtype and
 * parameter names in any case, a parameter value quoted or not, and the charset's value in any case
 * (`charset=utf-8` is `charset="UTF-8"`). Parameters must otherwise agree, in any order.
 */
export function sameMediaType(a: string, b: string): boolean {
  const canonical = (value: string): string => {
    const [type = '', ...params] = value.split(';');
    const named = params
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => {
        const at = p.indexOf('=');
        const key = (at === -1 ? p : p.slice(0, at)).trim().toLowerCase();
        let v = at === -1 ? '' : p.slice(at + 1).trim();
        if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
        return `${key}=${key === 'charset' ? v.toLowerCase() : v}`;
      })
      .sort();
    return [type.trim().toLowerCase(), ...named].join(';');
  };
  return canonical(a) === canonical(b);
}

/** The first differing line of two texts, in the -expected/+actual style. */
function textDiff(expected: string, actual: string): string[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return [`body line ${i + 1}:`, `  - ${a[i] ?? '(end of body)'}`, `  + ${b[i] ?? '(end of body)'}`];
  }
  return [];
}

function binaryDiff(expected: Buffer, actual: Buffer): string {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  return `body: ${expected.length} bytes expected, ${actual.length} bytes got, first difference at byte ${at}`;
}

/** At most this many skipped exchanges are named one by one; the rest are counted. */
const SKIPPED_NAMED = 10;

function reportText(r: {
  total: number;
  matching: number;
  differing: ExchangeDifference[];
  skipped: SkippedExchange[];
  seed: string;
}): string {
  const lines: string[] = [];
  for (const d of r.differing) {
    lines.push(`exchange ${d.id}: ${d.method} ${d.path}`);
    for (const line of d.differences) lines.push(`  ${line}`);
  }
  const reasons = new Map<string, SkippedExchange[]>();
  for (const s of r.skipped) reasons.set(s.reason, [...(reasons.get(s.reason) ?? []), s]);
  for (const [reason, all] of reasons) {
    lines.push(`skipped ${all.length} exchange(s), ${reason}:`);
    for (const s of all.slice(0, SKIPPED_NAMED)) lines.push(`  exchange ${s.id}: ${s.method} ${s.path}`);
    if (all.length > SKIPPED_NAMED) lines.push(`  ... and ${all.length - SKIPPED_NAMED} more`);
  }
  lines.push(
    `verify: ${r.total} exchange(s), ${r.matching} match, ${r.differing.length} differ, ${r.skipped.length} skipped (start state: ${r.seed})`,
  );
  if (r.matching + r.differing.length === 0 && r.skipped.length > 0)
    lines.push('verify: nothing verified: the recording holds no request verify can send to the service');
  return `${lines.join('\n')}\n`;
}
