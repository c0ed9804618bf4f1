import { fields, formatBytes, formatDate, formatDuration, h, replace, type Child } from './dom.js';
import { outcomeOf, queryText } from './request-view.js';
import type { JournalBody, JournalEntry } from '../../http/wire-types.js';

/** The entry's fields shown in places of their own; any other is listed under its key turned into words. */
const SHOWN = new Set([
  'seq',
  'time',
  'mockTime',
  'method',
  'path',
  'query',
  'headers',
  'user',
  'status',
  'outcome',
  'durationMs',
  'delayMs',
  'fault',
  'scenario',
  'replay',
  'etag',
  'retryAfter',
  'parent',
  'committed',
  'device',
  'change',
  'network',
  'requestBody',
  'responseHeaders',
  'responseBody',
]);

/** A field's key as words for a person: "retryAfter" -> "Retry after". */
export function labelOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function headerTable(headers: Record<string, string>): HTMLTableElement {
  const rows = Object.entries(headers).map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v)));
  return h('table', { class: 'kv' }, h('tbody', {}, ...rows));
}

/** A kept body: its text (the journal's first bytes, secrets removed), or what it was when it is not text. */
function bodyView(body: JournalBody): Child[] {
  if (body.text === undefined) return [h('p', { class: 'muted' }, `Binary, ${formatBytes(body.bytes)}: not shown.`)];
  return [
    h('pre', { class: 'body-preview' }, body.text),
    body.truncated ? h('p', { class: 'muted' }, `The first bytes of ${formatBytes(body.bytes)}.`) : null,
  ];
}

/** Why an answer shows no body: it had none, or its bytes were not kept. */
function noBody(e: JournalEntry): string {
  if (e.status === null) return 'No answer was sent.';
  const empty =
    e.method === 'HEAD' || e.status === 204 || e.status === 304 || e.responseHeaders?.['content-length'] === '0';
  if (empty) return 'No body.';
  return (
    'Not kept: the inspector keeps the first 4 KB of the answers that arrive while it is open; ' +
    'start the mock with --journal-bodies to keep bodies always.'
  );
}

/** Renders one request's details into `panel`: what was asked, what was answered, and every other note. */
export function showRequestDetails(panel: HTMLElement, e: JournalEntry, onClose: () => void): void {
  const close = h('button', { type: 'button', class: 'quiet', 'aria-label': 'Close request details' }, '✕');
  close.addEventListener('click', onClose);
  const extra = Object.entries(e).filter(([k, v]) => !SHOWN.has(k) && v !== null && v !== undefined);
  replace(
    panel,
    h('div', { class: 'details-head' }, h('h3', {}, `${e.method} ${e.path}`), close),
    fields([
      ['Status', e.status === null ? 'pending' : String(e.status)],
      ['Arrived', formatDate(e.time)],
      ["On the mock's clock", e.mockTime ? formatDate(e.mockTime) : null],
      ['Duration', formatDuration(e.durationMs)],
      ['Held by the scenario', e.delayMs === null ? null : formatDuration(e.delayMs)],
      ['User', e.user ?? '—'],
      ['Scenario', e.scenario ?? '—'],
      ['Outcome', outcomeOf(e).label],
      ['Change committed', e.committed === undefined ? null : e.committed ? 'yes' : 'no'],
      ['Fault rule', e.fault],
      ['Replayed exchange', e.replay?.exchange === undefined ? null : `#${e.replay.exchange}`],
      ['Query', queryText(e) || null],
      ['Parent container', e.parent ?? null],
      ['Made by', e.device === 'second' ? 'the second device' : null],
    ]),
    e.replay?.nearMiss
      ? h('div', {}, h('h4', {}, 'Near misses'), h('pre', { class: 'near-miss' }, e.replay.nearMiss))
      : null,
    e.change
      ? h(
          'div',
          {},
          h('h4', {}, 'Second device change'),
          fields([
            ['Kind', e.change.kind],
            ['Trigger', e.change.trigger],
            ['Detail', e.change.detail ?? null],
            ['Refused', e.change.error ?? null],
          ]),
        )
      : null,
    e.network
      ? h('div', {}, h('h4', {}, 'Network conditions'), h('pre', {}, JSON.stringify(e.network, null, 2)))
      : null,
    h('h4', {}, 'Request headers (credentials removed)'),
    headerTable(e.headers),
    e.requestBody ? h('div', {}, h('h4', {}, 'Request body'), ...bodyView(e.requestBody)) : null,
    h('h4', {}, 'Response headers (credentials removed)'),
    e.responseHeaders ? headerTable(e.responseHeaders) : h('p', { class: 'muted' }, 'No answer was sent.'),
    h('h4', {}, 'Response body'),
    ...(e.responseBody ? bodyView(e.responseBody) : [h('p', { class: 'muted' }, noBody(e))]),
    ...extra.map(([k, v]) =>
      h('div', {}, h('h4', {}, labelOf(k)), h('pre', {}, typeof v === 'string' ? v : JSON.stringify(v, null, 2))),
    ),
  );
  panel.hidden = false;
}
