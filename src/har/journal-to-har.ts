import type { JournalBody, JournalEntry } from '../http/wire-types.js';
import { harEntry, harHeaders, harLog, statusText, type Har, type HarContent, type HarEntry } from './har-types.js';

const truncation = (body: JournalBody): string | undefined =>
  body.truncated ? 'truncated: the journal keeps the first bytes only (serve --journal-bodies)' : undefined;

function contentOf(body: JournalBody | undefined): HarContent {
  if (!body) return { size: 0, mimeType: '' };
  const comment = truncation(body);
  return {
    size: body.bytes,
    mimeType: '',
    ...(body.text !== undefined && { text: body.text }),
    ...(comment !== undefined && { comment }),
  };
}

/**
 * One journal line as a HAR entry. The journal keeps the request's headers (credentials removed) but
 * not the answer's, and bodies only with --journal-bodies (text, the first bytes): what it lacks, the
 * entry lacks. A request that was never answered has status 0 and says how it ended in `_error`.
 */
export function journalEntryToHar(entry: JournalEntry, origin: string): HarEntry {
  const queryString = harHeaders(entry.query);
  const search = new URLSearchParams(queryString.map((q) => [q.name, q.value])).toString();
  const requestType = Object.entries(entry.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const answered = entry.outcome === 'answered' || entry.outcome === 'closed';
  const request = entry.requestBody;
  const requestComment = request && truncation(request);
  return harEntry(
    entry.time,
    entry.durationMs ?? 0,
    {
      method: entry.method,
      url: `${origin}${entry.path}${search ? `?${search}` : ''}`,
      headers: harHeaders(entry.headers),
      queryString,
      ...(request && {
        postData: {
          mimeType: requestType,
          ...(request.text !== undefined && { text: request.text }),
          ...(requestComment !== undefined && { comment: requestComment }),
        },
      }),
      bodySize: request?.bytes ?? 0,
    },
    {
      status: entry.status ?? 0,
      statusText: entry.status === null ? '' : statusText(entry.status),
      headers: [],
      content: contentOf(entry.responseBody),
      redirectURL: '',
    },
    {
      comment: `journal #${entry.seq}`,
      ...(entry.user !== null && { _user: entry.user }),
      ...(!answered && { _error: entry.outcome }),
    },
  );
}

/** The journal as a HAR 1.2 log, links on `origin` (the mock's). Requests still in flight are left out. */
export function journalToHar(entries: readonly JournalEntry[], origin: string): Har {
  const base = origin.replace(/\/+$/, '');
  return harLog(entries.filter((e) => e.outcome !== 'pending').map((e) => journalEntryToHar(e, base)));
}

/**
 * The same HAR as text made an entry at a time: a big journal (20,000 entries) becomes a few
 * megabytes of JSON, and made in one go it would hold every other client for seconds. The answer goes
 * out in slices, yielding to other clients between them (sendAnswer's pieces).
 */
export function* journalHarPieces(entries: readonly JournalEntry[], origin: string): Generator<string> {
  const base = origin.replace(/\/+$/, '');
  const head = JSON.stringify(harLog([]));
  // Everything but the closing "]}}" of the empty entries list: the entries go in between.
  yield head.slice(0, -3);
  let first = true;
  for (const entry of entries) {
    if (entry.outcome === 'pending') continue;
    const text = JSON.stringify(journalEntryToHar(entry, base));
    yield first ? text : `,${text}`;
    first = false;
  }
  yield head.slice(-3);
}
