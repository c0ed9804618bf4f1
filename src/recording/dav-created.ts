import type { Recording } from './format.js';
import type { RecordedTree } from './recorded-tree.js';
import { davPath, destinationOf, under } from './dav-paths.js';

/**
 * The places (login and /dav path) a recording's WebDAV requests created something at: MKCOL and PUT
 * answered 201, a COPY to a new place, and wherever a MOVE took something created before. A COPY
 * answered 204 replaced an object the account may have held before, so its place is not counted.
 */
function davCreatedPlaces(recording: Recording): Map<string, Set<string>> {
  const places = new Map<string, Set<string>>();
  for (const e of recording.exchanges) {
    const { method } = e.request;
    const status = e.response.status;
    if (status >= 300) continue;
    const path = davPath(e.request.path);
    if (path === undefined) continue;
    const user = e.user ?? 'demo';
    let created = places.get(user);
    if (!created) places.set(user, (created = new Set()));
    if ((method === 'MKCOL' || method === 'PUT') && status === 201) created.add(path);
    const destination = method === 'COPY' || method === 'MOVE' ? destinationOf(e) : undefined;
    if (destination === undefined) continue;
    if (method === 'COPY' && status === 201) created.add(destination);
    if (method !== 'MOVE') continue;
    // What the MOVE carried keeps being the session's own at its new place; what it replaced is gone.
    const carried = [...created].filter((c) => under(c, path));
    const insideCreated = [...created].some((c) => under(path, c) && c !== path);
    for (const c of [...created]) if (under(c, path) || under(c, destination)) created.delete(c);
    for (const c of carried) created.add(destination + c.slice(path.length));
    if (insideCreated) created.add(destination);
  }
  return places;
}

/**
 * Ids of the objects a recording created over WebDAV, which it may then have read over /v2: each
 * object's /dav path, from its name and parents as the recording's end shows them, against the places
 * davCreatedPlaces found. Something renamed over /v2 after its creation is not matched.
 */
export function davCreatedIds(recording: Recording, end: RecordedTree): Set<string> {
  const ids = new Set<string>();
  const places = davCreatedPlaces(recording);
  if (places.size === 0) return ids;
  const pathOf = new Map<string, string | undefined>();
  const resolve = (id: string, seen: Set<string>): string | undefined => {
    if (pathOf.has(id)) return pathOf.get(id);
    const o = end.objects.get(id);
    let path: string | undefined;
    if (o?.parentId === null) path = '';
    else if (o?.parentId && o.name !== undefined && !seen.has(id)) {
      const parent = resolve(o.parentId, seen.add(id));
      if (parent !== undefined) path = parent ? `${parent}/${o.name.normalize('NFC')}` : o.name.normalize('NFC');
    }
    pathOf.set(id, path);
    return path;
  };
  for (const [id, o] of end.objects) {
    const path = resolve(id, new Set());
    if (path && places.get(o.user)?.has(path)) ids.add(id);
  }
  return ids;
}
