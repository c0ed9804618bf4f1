import { getJson } from './api.js';
import { byId, formatBytes, h } from './dom.js';
import { showNodeDetails } from './node-details.js';
import type { InspectedNode, InspectedQueue, InspectedUser, Listing } from '../../http/wire-types.js';

const childrenUrl = (user: string, id: string, start: number): string =>
  `inspector/children?user=${encodeURIComponent(user)}&id=${encodeURIComponent(id)}&start=${start}`;

/** Each user's tree as the store holds it (an ARIA tree: arrows move, Right/Left open and close), plus the recycle bin. */
export class FilesPanel {
  readonly #expanded = new Set<string>();
  /** Containers whose members were shown past the first page: how many pages, kept across refreshes. */
  readonly #pages = new Map<string, number>();
  readonly #trees = byId('trees');
  /** The object each rendered tree item stands for. */
  readonly #nodes = new WeakMap<Element, InspectedNode>();
  #selected: { user: string; id: string } | null = null;
  #generation = 0;

  constructor(private readonly onError: (err: unknown) => void) {
    this.#trees.addEventListener('keydown', (e) => this.#onKey(e));
  }

  /** Reads the whole visible tree again (expanded containers stay open), keeping selection and focus. */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    try {
      const { users } = await getJson<{ users: InspectedUser[] }>('inspector/users');
      const blocks = await Promise.all(users.map((u) => this.#userBlock(u)));
      if (generation !== this.#generation) return;
      const focusedId = (document.activeElement as HTMLElement | null)
        ?.closest('[role=treeitem]')
        ?.getAttribute('data-id');
      this.#trees.replaceChildren(...blocks);
      byId('files-summary').textContent = `${users.length} user${users.length === 1 ? '' : 's'}`;
      this.#restoreSelection(focusedId ?? null);
    } catch (err) {
      this.onError(err);
    }
  }

  async #userBlock(u: InspectedUser): Promise<HTMLElement> {
    const tree = h('ul', { role: 'tree', 'aria-label': `Files of ${u.user}`, class: 'tree' });
    tree.append(...(await this.#items(u.user, u.rootId, 1)));
    if (!tree.children.length) tree.append(h('li', { role: 'none', class: 'muted' }, 'No objects.'));
    const bin = await getJson<Listing>(`inspector/recycle-bin?user=${encodeURIComponent(u.user)}`);
    const binList = h('ul', { class: 'bin' });
    for (const node of bin.nodes) {
      const open = h('button', { type: 'button', class: 'link', 'data-id': node.id }, node.name);
      open.addEventListener('click', () => this.#select(u.user, node, open));
      binList.append(h('li', {}, node.kind === 'container' ? '📁 ' : '📄 ', open));
    }
    const binBlock = h(
      'details',
      { class: 'recycle-bin' },
      h('summary', {}, `Recycle bin (${u.recycled})`),
      bin.nodes.length ? binList : h('p', { class: 'muted' }, 'Empty.'),
    );
    return h(
      'div',
      { class: 'user-block' },
      h('h3', { class: 'user' }, h('span', { class: 'muted' }, 'user '), u.user),
      tree,
      binBlock,
      u.queues.length ? queuesBlock(u.queues) : null,
    );
  }

  /**
   * The tree items of a container's members, a page at a time (as many pages as were shown before);
   * expanded containers bring their own members. A "Show more" button ends a listing with more members.
   */
  async #items(user: string, containerId: string, level: number): Promise<HTMLElement[]> {
    const items: HTMLElement[] = [];
    const pages = this.#pages.get(containerId) ?? 1;
    let start: number | null = 0;
    for (let page = 0; page < pages && start !== null; page++) {
      const listing: Listing = await getJson<Listing>(childrenUrl(user, containerId, start));
      items.push(...(await Promise.all(listing.nodes.map((n) => this.#item(user, n, level)))));
      if (listing.next === null) return items;
      if (page === pages - 1) items.push(this.#moreButton(user, containerId, level, listing));
      start = listing.next;
    }
    return items;
  }

  /** "Show more": the next page of members, put where the button was. */
  #moreButton(user: string, containerId: string, level: number, listing: Listing): HTMLElement {
    const button = h('button', { type: 'button', class: 'link' }, `Show ${listing.more} more…`);
    const li = h('li', { role: 'none', class: 'muted more' }, button);
    button.addEventListener('click', () => {
      button.setAttribute('disabled', '');
      void (async () => {
        try {
          const next = await getJson<Listing>(childrenUrl(user, containerId, listing.next ?? 0));
          const items = await Promise.all(next.nodes.map((n) => this.#item(user, n, level)));
          if (next.next !== null) items.push(this.#moreButton(user, containerId, level, next));
          this.#pages.set(containerId, (this.#pages.get(containerId) ?? 1) + 1);
          li.replaceWith(...items);
        } catch (err) {
          button.removeAttribute('disabled');
          this.onError(err);
        }
      })();
    });
    return li;
  }

  async #item(user: string, node: InspectedNode, level: number): Promise<HTMLElement> {
    const container = node.kind === 'container';
    const open = container && this.#expanded.has(node.id);
    const li = h('li', {
      role: 'treeitem',
      'aria-label': node.name,
      'aria-level': level,
      'aria-selected': 'false',
      'aria-expanded': container ? String(open) : null,
      tabindex: -1,
      'data-id': node.id,
      'data-user': user,
    });
    const meta = container ? `${node.members ?? 0} item${node.members === 1 ? '' : 's'}` : formatBytes(node.bytes);
    const row = h(
      'div',
      { class: 'row' },
      h('span', { class: 'twisty', 'aria-hidden': 'true' }, container ? (open ? '▾' : '▸') : ''),
      h('span', { class: `icon ${container ? 'folder' : 'file'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'name' }, node.name),
      ...node.tags.map((t) => h('span', { class: 'tag' }, t)),
      node.locks.length ? h('span', { class: 'lock', title: 'WebDAV lock' }, 'locked') : null,
      h('span', { class: 'meta' }, meta),
    );
    // Through the CSSOM: the page's policy allows no inline style attributes.
    row.style.setProperty('--level', String(level));
    row.addEventListener('click', () => {
      this.#select(user, node, li);
      if (container) void this.#toggle(li, user, node, level);
    });
    li.append(row);
    this.#nodes.set(li, node);
    if (open) li.append(h('ul', { role: 'group' }, ...(await this.#items(user, node.id, level + 1))));
    return li;
  }

  async #toggle(li: HTMLElement, user: string, node: InspectedNode, level: number, want?: boolean): Promise<void> {
    const open = want ?? li.getAttribute('aria-expanded') !== 'true';
    if (open === (li.getAttribute('aria-expanded') === 'true')) return;
    li.setAttribute('aria-expanded', String(open));
    li.querySelector(':scope > .row > .twisty')!.textContent = open ? '▾' : '▸';
    if (!open) {
      this.#expanded.delete(node.id);
      li.querySelector(':scope > [role=group]')?.remove();
      return;
    }
    this.#expanded.add(node.id);
    try {
      li.append(h('ul', { role: 'group' }, ...(await this.#items(user, node.id, level + 1))));
    } catch (err) {
      this.onError(err);
    }
  }

  #select(user: string, node: InspectedNode, target: HTMLElement): void {
    this.#selected = { user, id: node.id };
    if (target.getAttribute('role') === 'treeitem') {
      for (const el of this.#trees.querySelectorAll('[role=treeitem]')) {
        el.setAttribute('aria-selected', String(el === target));
        el.setAttribute('tabindex', el === target ? '0' : '-1');
      }
    }
    target.focus();
    showNodeDetails(user, node, this.onError);
  }

  #restoreSelection(focusedId: string | null): void {
    const items = [...this.#trees.querySelectorAll<HTMLElement>('[role=treeitem]')];
    const selected = this.#selected && items.find((el) => el.dataset['id'] === this.#selected!.id);
    if (selected) {
      selected.setAttribute('aria-selected', 'true');
      selected.setAttribute('tabindex', '0');
      if (focusedId === this.#selected!.id) selected.focus();
      showNodeDetails(this.#selected!.user, this.#nodes.get(selected)!, this.onError);
    } else {
      if (this.#selected && !this.#trees.querySelector(`[data-id="${CSS.escape(this.#selected.id)}"]`))
        byId('file-details').hidden = true;
      for (const tree of this.#trees.querySelectorAll('[role=tree]'))
        tree.querySelector('[role=treeitem]')?.setAttribute('tabindex', '0');
    }
  }

  #onKey(e: KeyboardEvent): void {
    const li = (e.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
    if (!li) return;
    const tree = li.closest('[role=tree]')!;
    const items = [...tree.querySelectorAll<HTMLElement>('[role=treeitem]')];
    const at = items.indexOf(li);
    const node = this.#nodes.get(li)!;
    const user = li.dataset['user']!;
    const level = Number(li.getAttribute('aria-level'));
    const go = (target: HTMLElement | undefined): void => {
      if (target) this.#select(target.dataset['user']!, this.#nodes.get(target)!, target);
    };
    switch (e.key) {
      case 'ArrowDown':
        go(items[at + 1]);
        break;
      case 'ArrowUp':
        go(items[at - 1]);
        break;
      case 'Home':
        go(items[0]);
        break;
      case 'End':
        go(items[items.length - 1]);
        break;
      case 'ArrowRight':
        if (li.getAttribute('aria-expanded') === 'false') void this.#toggle(li, user, node, level, true);
        else if (li.getAttribute('aria-expanded') === 'true')
          go(li.querySelector<HTMLElement>('[role=group] > [role=treeitem]') ?? undefined);
        break;
      case 'ArrowLeft':
        if (li.getAttribute('aria-expanded') === 'true') void this.#toggle(li, user, node, level, false);
        else go(li.parentElement?.closest<HTMLElement>('[role=treeitem]') ?? undefined);
        break;
      case 'Enter':
      case ' ':
        if (node.kind === 'container') void this.#toggle(li, user, node, level);
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}

/** The user's CDMI notification queues: each one's unread range and what it dropped (shown only when there are some). */
function queuesBlock(queues: InspectedQueue[]): HTMLElement {
  const items = queues.map((q) =>
    h(
      'li',
      {},
      h('code', {}, q.name),
      ` ${q.values} unread`,
      q.queueValues ? ` (${q.queueValues})` : '',
      q.dropped ? `, ${q.dropped} dropped (at most ${q.limit} kept)` : '',
    ),
  );
  return h(
    'details',
    { class: 'queues' },
    h('summary', {}, `Notification queues (${queues.length})`),
    h('ul', { class: 'bin' }, ...items),
  );
}
