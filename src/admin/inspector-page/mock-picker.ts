import { getJson } from './api.js';
import { byId, h } from './dom.js';
import type { TenantView } from '../../http/wire-types.js';

/** Where this page is: the server's admin (`<root>/__admin/`) or a tenant's (`<root>/t/<name>/__admin/`). */
const WHERE = /^(.*?)(?:\/t\/([a-z0-9-]{1,40}))?\/__admin\/?$/.exec(location.pathname);
const ROOT = WHERE?.[1] ?? '';
const CURRENT = WHERE?.[2] ?? null;

const pageOf = (tenant: string | null): string =>
  tenant === null ? `${ROOT}/__admin/` : `${ROOT}/t/${tenant}/__admin/`;

/**
 * The Mock selector: the served mock's default mock and its tenants (GET /__admin/tenants of the server); picking
 * one opens its inspector. Hidden while the server has no tenants (or makes none, as createApp's mock).
 */
export async function showMockPicker(): Promise<void> {
  const picker = byId('mock-picker');
  const select = byId<HTMLSelectElement>('mock-select');
  if (CURRENT !== null) document.title = `${CURRENT} · csp-mock inspector`;
  const load = async (): Promise<void> => {
    let tenants: TenantView[];
    try {
      tenants = (await getJson<{ tenants: TenantView[] }>(`${ROOT}/__admin/tenants`)).tenants;
    } catch {
      tenants = [];
    }
    const names = tenants.map((t) => t.name);
    if (CURRENT !== null && !names.includes(CURRENT)) names.push(CURRENT);
    select.replaceChildren(
      h('option', { value: pageOf(null), selected: CURRENT === null }, 'default'),
      ...names.map((name) => h('option', { value: pageOf(name), selected: CURRENT === name }, `tenant ${name}`)),
    );
    picker.hidden = names.length === 0;
  };
  select.addEventListener('focus', () => void load());
  select.addEventListener('change', () => location.assign(select.value));
  await load();
}
