import { headerValue, type Recording } from './format.js';
import { idOfLink, recordingToState } from './recording-to-state.js';
import type { RecordedTree } from './recorded-tree.js';
import { davCreatedIds } from './dav-created.js';

/** Ids the recording itself created over /v2: the address a 201 to a POST names (creates and copies). */
function createdIds(recording: Recording): Set<string> {
  const ids = new Set<string>();
  for (const e of recording.exchanges) {
    if (e.request.method !== 'POST' || e.response.status !== 201) continue;
    const created = idOfLink(headerValue(e.response.headers, 'location') ?? e.response.body.toString('utf8'));
    if (created) ids.add(created.id);
  }
  return ids;
}

/**
 * The account as it was when the recording started: what the recording shows, less what its own
 * requests created over /v2 or /dav (and what lies under those), with deleted objects restored and objects a
 * WebDAV MOVE took back where they were first seen. Other names, places and contents are as last seen, so a
 * recording that renames over /v2 or rewrites a pre-existing object still differs.
 */
export function recordingStartState(recording: Recording): RecordedTree {
  const end = recordingToState(recording);
  const created = new Set([...createdIds(recording), ...davCreatedIds(recording, end)]);
  const objects: RecordedTree['objects'] = new Map();
  for (const [id, o] of end.objects) {
    if (created.has(id)) continue;
    objects.set(id, {
      ...o,
      ...(o.startPlace && { name: o.startPlace.name, parentId: o.startPlace.parentId }),
      deleted: false,
    });
  }
  // Something whose recorded parent was created during the recording did not exist at its start either.
  let dropped = true;
  while (dropped) {
    dropped = false;
    for (const [id, o] of objects) {
      if (o.parentId && !objects.has(o.parentId) && created.has(o.parentId)) {
        objects.delete(id);
        created.add(id);
        dropped = true;
      }
    }
  }
  return { roots: end.roots, objects };
}

/** True when the recording works on objects it did not create: it started on an account that held data. */
export function startsOnExistingAccount(recording: Recording): boolean {
  const start = recordingStartState(recording);
  const roots = new Set(start.roots.values());
  return [...start.objects.keys()].some((id) => !roots.has(id));
}
