import type { CloudStore } from '../domain/cloud-store.js';
import { CHANGE_KINDS, type ChangeKind, type DeviceChange } from '../scenarios/types.js';
import { objectAt, placeOf } from './object-paths.js';

/** A change ready to apply: its kind, whose tree, the path it names, and a few words on its arguments. */
export interface ChangePlan {
  kind: ChangeKind;
  user: string;
  path: string;
  detail: string | undefined;
}

/** What kind a change is: the one field that names its path (checked before it gets here). */
export function kindOf(change: DeviceChange): ChangeKind {
  const fields = change as unknown as Record<string, unknown>;
  for (const kind of CHANGE_KINDS) if (fields[kind] !== undefined) return kind;
  throw new Error('a change without a kind');
}

function contentOf(change: { text?: string; base64?: string }): Buffer {
  if (change.base64 !== undefined) return Buffer.from(change.base64, 'base64');
  return Buffer.from(change.text ?? '', 'utf8');
}

const list = (names: string[] | undefined): string => (names ?? []).join(', ');

/** The plan of a change, for the journal, before it runs. */
export function planOf(change: DeviceChange, user: string): ChangePlan {
  const kind = kindOf(change);
  const c = change as DeviceChange & Record<string, unknown>;
  const path = kind === 'quota' ? '/' : String(c[kind]);
  let detail: string | undefined;
  if ('to' in change) detail = `to ${change.to}`;
  if ('create' in change || 'overwrite' in change) detail = `${contentOf(change).length} bytes`;
  if ('metadata' in change)
    detail = [
      ...Object.entries(change.set ?? {}).map(([k, v]) => `set ${k}=${v}`),
      ...(change.remove ?? []).map((k) => `remove ${k}`),
    ].join('; ');
  if ('tags' in change)
    detail = [
      change.add?.length ? `add ${list(change.add)}` : '',
      change.remove?.length ? `remove ${list(change.remove)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
  if ('quota' in change) detail = `${change.quota} bytes allocated`;
  return { kind, user, path, detail };
}

/**
 * Applies one change through the domain, as a client's request would: the same transactions, lock checks
 * (the second device holds no lock token) and version/ETag changes. Answers the HTTP status a client
 * doing the same would have got; throws the domain's error when it cannot apply.
 */
export async function applyChange(store: CloudStore, change: DeviceChange, user: string): Promise<number> {
  if ('create' in change) {
    const { parent, name } = placeOf(store, user, change.create);
    await store.createFile(user, parent.id, { name, mimeType: change.mimeType }, contentOf(change));
    return 201;
  }
  if ('createFolder' in change) {
    const { parent, name } = placeOf(store, user, change.createFolder);
    await store.createContainer(user, parent.id, name);
    return 201;
  }
  if ('overwrite' in change) {
    await store.writeContent(user, objectAt(store, user, change.overwrite, 'file').id, contentOf(change));
    return 204;
  }
  if ('rename' in change) {
    await store.update(user, objectAt(store, user, change.rename).id, { name: change.to });
    return 204;
  }
  if ('move' in change) {
    const node = objectAt(store, user, change.move);
    await store.update(user, node.id, { parentId: objectAt(store, user, change.to, 'container').id });
    return 204;
  }
  if ('delete' in change) {
    await store.recycleBin.add(user, objectAt(store, user, change.delete).id);
    return 204;
  }
  if ('metadata' in change) {
    const id = objectAt(store, user, change.metadata).id;
    for (const [key, value] of Object.entries(change.set ?? {}))
      await store.annotations.setMetadata(user, id, key, value);
    for (const key of change.remove ?? []) await store.annotations.deleteMetadata(user, id, key);
    return 204;
  }
  if ('tags' in change) {
    const id = objectAt(store, user, change.tags).id;
    for (const tag of change.add ?? []) await store.annotations.addTag(user, id, tag);
    for (const tag of change.remove ?? []) await store.annotations.removeTag(user, id, tag);
    return 204;
  }
  objectAt(store, user, '/');
  await store.setStorageAllocated(user, change.quota);
  return 204;
}
