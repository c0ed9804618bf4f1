import { getJson, sendJson } from './api.js';
import { byId, h } from './dom.js';
import type { InspectedRule, ScenarioListing, InspectedScenario } from '../../http/wire-types.js';

const RULE_KEYS = new Set(['name', 'match', 'times', 'after', 'probability', 'seed']);

/** What a fault does, in a few words; fields this page does not know are shown as they are. */
export function actionText(rule: InspectedRule['rule']): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(rule)) {
    if (RULE_KEYS.has(key)) continue;
    if (key === 'respond' && value && typeof value === 'object')
      parts.push(`answer ${(value as { status: number }).status}`);
    else if (key === 'connection') parts.push(`${String(value)} the connection`);
    else if (key === 'truncateAfterBytes') parts.push(`cut after ${String(value)} bytes`);
    else if (key === 'delayMs') parts.push(`wait ${String(value)} ms`);
    else parts.push(`${key}: ${JSON.stringify(value)}`);
  }
  return parts.join(', ') || '—';
}

function whenText(rule: InspectedRule['rule']): string {
  const parts: string[] = [];
  if (typeof rule['after'] === 'number') parts.push(`after ${rule['after']}`);
  if (typeof rule['times'] === 'number') parts.push(`${rule['times']}×`);
  if (typeof rule['probability'] === 'number') parts.push(`p=${rule['probability']}`);
  return parts.join(', ');
}

/** The active scenario: the selector (the admin API's atomic switch), Reset with confirmation, fault counters, replay progress. */
export class ScenarioPanel {
  readonly #select = byId<HTMLSelectElement>('scenario-select');
  readonly #status = byId('scenario-status');
  readonly #dialog = byId<HTMLDialogElement>('reset-dialog');
  #active = '';
  #listing: ScenarioListing[] | undefined;
  /** How many refreshes were started: only the latest one renders. */
  #refreshes = 0;

  constructor(
    private readonly onError: (err: unknown) => void,
    private readonly onSwitched: () => void,
  ) {
    this.#select.addEventListener('change', () => void this.#switchTo(this.#select.value));
    byId('reset').addEventListener('click', () => this.#askReset());
    byId('reset-cancel').addEventListener('click', () => this.#dialog.close());
    byId('reset-confirm').addEventListener('click', () => {
      this.#dialog.close();
      void this.#reset();
    });
  }

  /** Reads the active scenario (and, the first time or when asked, the list of scenarios to choose from). */
  async refresh(relist = false): Promise<void> {
    // Refreshes overlap (a switch's own, the event stream's): an older answer arriving last must not win.
    const turn = ++this.#refreshes;
    try {
      if (relist || !this.#listing)
        this.#listing = (await getJson<{ scenarios: ScenarioListing[] }>('scenarios')).scenarios;
      const view = await getJson<InspectedScenario>('inspector/scenario');
      if (turn === this.#refreshes) this.#render(view, this.#listing);
    } catch (err) {
      this.onError(err);
    }
  }

  async #switchTo(name: string): Promise<void> {
    this.#status.textContent = `Switching to ${name}…`;
    try {
      await sendJson('PUT', 'scenario', { name });
      this.#status.textContent = `Switched to ${name}.`;
      this.onSwitched();
    } catch (err) {
      this.#select.value = this.#active;
      this.#status.textContent = '';
      this.onError(err);
    }
    await this.refresh();
  }

  #askReset(): void {
    byId('reset-dialog-text').textContent =
      `The state goes back to the seed of “${this.#active}”: objects created since are lost, fault counters and the request journal are cleared.`;
    this.#dialog.showModal();
    byId('reset-cancel').focus();
  }

  async #reset(): Promise<void> {
    this.#status.textContent = 'Resetting…';
    try {
      await sendJson('POST', 'reset', {});
      this.#status.textContent = `Reset to the seed of ${this.#active}.`;
      this.onSwitched();
    } catch (err) {
      this.#status.textContent = '';
      this.onError(err);
    }
    await this.refresh();
    byId('reset').focus();
  }

  #render(view: InspectedScenario, listing: ScenarioListing[]): void {
    this.#active = view.name;
    const names = listing.map((s) => s.name);
    if (!names.includes(view.name)) names.unshift(view.name);
    if (names.join('\n') !== [...this.#select.options].map((o) => o.value).join('\n')) {
      this.#select.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
    }
    this.#select.value = view.name;
    byId('scenario-description').textContent = view.description || 'No description.';
    const facts = [
      view.seeded ? 'seeds the state' : 'keeps the state',
      view.latency
        ? 'median' in view.latency
          ? `latency log-normal, median ${view.latency.median}, p99 ${view.latency.p99}`
          : `latency ${view.latency.minMs}${view.latency.maxMs ? `–${view.latency.maxMs}` : ''} ms`
        : null,
      view.source === 'inline' ? 'inline' : `from ${view.source.split(/[\\/]/).pop()}`,
    ].filter(Boolean);
    const body = byId('scenario-body');
    body.replaceChildren(
      h('p', { class: 'muted facts' }, facts.join(' · ')),
      this.#faultTable(view),
      this.#recording(view),
    );
  }

  #faultTable(view: InspectedScenario): HTMLElement {
    if (!view.faults.length) return h('p', { class: 'muted' }, 'No fault rules.');
    const items = view.faults.map((f) => {
      const when = whenText(f.rule);
      return h(
        'li',
        {},
        h(
          'div',
          { class: 'rule-head' },
          h('strong', {}, f.label),
          h(
            'span',
            { class: 'fired' },
            h('span', { class: `badge ${f.applied ? 'fault' : 'muted'}` }, `fired ${f.applied}×`),
            h('span', { class: 'muted' }, ` of ${f.matched} matched`),
          ),
        ),
        h(
          'div',
          {},
          h('code', {}, `${[f.rule.match.method].flat().join('|')} ${f.rule.match.path}`),
          ' → ',
          actionText(f.rule),
          when ? h('span', { class: 'muted' }, ` (${when})`) : null,
        ),
      );
    });
    return h(
      'div',
      {},
      h('h3', { class: 'section-title', id: 'fault-rules-title' }, 'Fault rules'),
      h('ul', { class: 'rules', 'aria-labelledby': 'fault-rules-title' }, ...items),
    );
  }

  #recording(view: InspectedScenario): HTMLElement | string {
    const rec = view.recording;
    if (!rec) return '';
    const served = rec.exchanges.filter((e) => e.served > 0).length;
    const rows = rec.exchanges.map((e) =>
      h(
        'tr',
        { class: e.served ? 'served' : '' },
        h('td', { class: 'num' }, `#${e.id}`),
        h('td', { class: 'path' }, h('code', {}, `${e.method} ${e.path}`)),
        h('td', {}, String(e.status)),
        h(
          'td',
          {},
          e.served
            ? h('span', { class: 'badge good' }, `served ${e.served}×`)
            : h('span', { class: 'muted' }, 'not yet'),
        ),
      ),
    );
    return h(
      'table',
      { class: 'compact' },
      h('caption', {}, `Recording ${rec.name}: ${served} of ${rec.exchanges.length + rec.more} exchanges served`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Id'),
          h('th', { scope: 'col' }, 'Request'),
          h('th', { scope: 'col' }, 'Status'),
          h('th', { scope: 'col' }, 'Served'),
        ),
      ),
      h('tbody', {}, ...rows),
    );
  }
}
