import { byId, formatClock, formatDuration, h } from './dom.js';
import { showRequestDetails } from './request-details.js';
import { outcomeOf, queryText, statusTone } from './request-view.js';
import type { JournalEntry } from '../../http/wire-types.js';

/** The page keeps as many requests as the journal does. */
const MAX_ROWS = 1000;

interface Row {
  entry: JournalEntry;
  tr: HTMLTableRowElement;
}

function statusMatches(filter: string, status: number | null): boolean {
  const wanted = filter.split(/[\s,]+/).filter(Boolean);
  if (!wanted.length) return true;
  const text = status === null ? '' : String(status);
  return wanted.some((w) => (/^\dxx$/i.test(w) ? text[0] === w[0] : text === w));
}

/** The live request list: rows kept by sequence number, newest first, updated in place. */
export class RequestsPanel {
  readonly #rows = new Map<number, Row>();
  readonly #tbody: HTMLTableSectionElement;
  readonly #filters: HTMLFormElement;
  readonly #details: HTMLElement;
  readonly #pause: HTMLButtonElement;
  readonly #queued: Array<[string, unknown]> = [];
  #selected: number | null = null;

  constructor(onClear: () => void) {
    this.#tbody = byId<HTMLTableElement>('request-table').tBodies[0]!;
    this.#filters = byId<HTMLFormElement>('request-filters');
    this.#details = byId('request-details');
    this.#pause = byId<HTMLButtonElement>('pause');
    this.#filters.addEventListener('input', () => this.#applyFilters());
    this.#filters.addEventListener('submit', (e) => e.preventDefault());
    this.#pause.addEventListener('click', () => this.#togglePause());
    byId('clear').addEventListener('click', onClear);
    this.#count();
  }

  get paused(): boolean {
    return this.#pause.getAttribute('aria-pressed') === 'true';
  }

  /** One event of the stream; while paused, events wait and are applied in order on resume. */
  handle(type: string, data: unknown): void {
    if (this.paused) {
      this.#queued.push([type, data]);
      if (this.#queued.length > MAX_ROWS * 2) this.#queued.splice(0, this.#queued.length - MAX_ROWS * 2);
      this.#count();
      return;
    }
    this.#apply(type, data);
  }

  #apply(type: string, data: unknown): void {
    if (type === 'snapshot') {
      this.#clear();
      for (const entry of (data as { entries: JournalEntry[] }).entries) this.#upsert(entry);
    } else if (type === 'added' || type === 'updated') {
      this.#upsert(data as JournalEntry);
    } else if (type === 'cleared') {
      this.#clear();
    }
    this.#count();
  }

  #togglePause(): void {
    const pause = !this.paused;
    this.#pause.setAttribute('aria-pressed', String(pause));
    this.#pause.textContent = pause ? 'Resume' : 'Pause';
    if (!pause) for (const [type, data] of this.#queued.splice(0)) this.#apply(type, data);
    this.#count();
  }

  #clear(): void {
    this.#rows.clear();
    this.#tbody.replaceChildren();
    this.#select(null);
  }

  #upsert(entry: JournalEntry): void {
    const existing = this.#rows.get(entry.seq);
    const tr = existing?.tr ?? h('tr');
    this.#rows.set(entry.seq, { entry, tr });
    this.#fill(tr, entry);
    if (!existing) {
      this.#tbody.prepend(tr);
      while (this.#rows.size > MAX_ROWS) this.#drop(Math.min(...this.#rows.keys()));
    }
    tr.hidden = !this.#visible(entry);
    if (this.#selected === entry.seq) this.#showDetails(entry);
  }

  #drop(seq: number): void {
    this.#rows.get(seq)?.tr.remove();
    this.#rows.delete(seq);
    if (this.#selected === seq) this.#select(null);
  }

  #fill(tr: HTMLTableRowElement, e: JournalEntry): void {
    const outcome = outcomeOf(e);
    const open = h(
      'button',
      {
        type: 'button',
        class: 'link',
        title: `${e.method} ${e.path}${queryText(e)}`,
        'aria-current': this.#selected === e.seq ? 'true' : null,
      },
      e.path + queryText(e),
    );
    open.addEventListener('click', () => this.#select(e.seq));
    tr.className = this.#selected === e.seq ? 'selected' : '';
    const hadFocus = tr.contains(document.activeElement);
    tr.replaceChildren(
      h('td', { class: 'num' }, h('time', { datetime: e.time }, formatClock(e.time))),
      h('td', {}, h('span', { class: 'method' }, e.method)),
      h('td', { class: 'path' }, open),
      h('td', {}, h('span', { class: `badge ${statusTone(e.status)}` }, e.status ?? '…')),
      h('td', { class: 'num' }, formatDuration(e.durationMs)),
      h('td', {}, e.user ?? '—'),
      h('td', { class: 'names' }, e.scenario ?? '—'),
      h('td', {}, h('span', { class: `badge ${outcome.tone}` }, outcome.label)),
      h('td', { class: 'names' }, e.fault ? h('span', { class: 'badge fault' }, e.fault) : ''),
    );
    if (hadFocus) open.focus();
  }

  #visible(e: JournalEntry): boolean {
    const form = new FormData(this.#filters);
    const method = String(form.get('method') ?? '');
    const path = String(form.get('path') ?? '')
      .trim()
      .toLowerCase();
    const outcome = String(form.get('outcome') ?? '');
    if (method && e.method !== method) return false;
    if (path && !(e.path + queryText(e)).toLowerCase().includes(path)) return false;
    if (!statusMatches(String(form.get('status') ?? ''), e.status)) return false;
    if (outcome === 'fault') return e.fault !== null;
    if (outcome === 'fell back') return e.replay?.outcome === 'emulated' || e.replay?.outcome === 'proxied';
    if (outcome) return outcomeOf(e).label === outcome;
    return true;
  }

  #applyFilters(): void {
    for (const { entry, tr } of this.#rows.values()) tr.hidden = !this.#visible(entry);
    this.#count();
  }

  #count(): void {
    const shown = [...this.#rows.values()].filter((r) => !r.tr.hidden).length;
    const total = this.#rows.size;
    let text = shown === total ? `${total} request${total === 1 ? '' : 's'}` : `showing ${shown} of ${total}`;
    if (this.paused) text += ` · paused, ${this.#queued.length} update${this.#queued.length === 1 ? '' : 's'} waiting`;
    byId('requests-count').textContent = text;
    byId('requests-empty').hidden = total > 0;
  }

  #select(seq: number | null): void {
    const previous = this.#selected;
    this.#selected = seq;
    for (const s of [previous, seq]) {
      const row = s === null ? undefined : this.#rows.get(s);
      if (row) this.#fill(row.tr, row.entry);
    }
    const row = seq === null ? undefined : this.#rows.get(seq);
    if (row) this.#showDetails(row.entry);
    else this.#details.hidden = true;
  }

  #showDetails(e: JournalEntry): void {
    showRequestDetails(this.#details, e, () => this.#select(null));
  }
}
