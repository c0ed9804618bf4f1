import type { NodeRecord } from './schema.js';
import { isRecord } from './state-file.js';

/** Past this many distinct owners and MIME types, new ones are kept as they come. */
const MAX_SHARED = 4096;
/** The one empty tag list and dictionary loaded records share (frozen: records are never changed in place). */
const NO_TAGS: readonly string[] = Object.freeze([]);
const NO_ENTRIES: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * Takes the nodes of a state being read, one parsed record at a time, into a Map keyed by id. Each
 * record loses, while it is still young garbage to the collector, what a million of them would
 * otherwise carry into the old generation: its own empty tag list and dictionaries (most records have
 * none), its own copies of the owner and MIME type, and its own copy of its parent's id when the parent
 * came first. Values stay equal, so the record reads the same. Records are checked afterwards
 * (`stateMapsProblem`): a record of the wrong shape is kept as it came.
 */
export class NodeIntake {
  readonly nodes = new Map<string, NodeRecord>();
  readonly #strings = new Map<string, string>();

  add(key: string, value: unknown): void {
    if (!isRecord(value)) {
      this.nodes.set(key, value as unknown as NodeRecord);
      return;
    }
    if (Array.isArray(value['tags']) && value['tags'].length === 0) value['tags'] = NO_TAGS;
    if (isEmptyObject(value['metadata'])) value['metadata'] = NO_ENTRIES;
    if (isEmptyObject(value['deadProps'])) value['deadProps'] = NO_ENTRIES;
    if (typeof value['owner'] === 'string') value['owner'] = this.#share(value['owner']);
    if (typeof value['mimeType'] === 'string' && value['mimeType'] !== '')
      value['mimeType'] = this.#share(value['mimeType']);
    if (typeof value['parentId'] === 'string') {
      const parentId = this.nodes.get(value['parentId'])?.id;
      if (parentId === value['parentId']) value['parentId'] = parentId;
    }
    // Keyed by the record's own id when it is the key: the key read from the file can then go.
    this.nodes.set(value['id'] === key ? (value['id'] as string) : key, value as unknown as NodeRecord);
  }

  #share(value: string): string {
    const held = this.#strings.get(value);
    if (held !== undefined) return held;
    if (this.#strings.size < MAX_SHARED) this.#strings.set(value, value);
    return value;
  }
}

/** An object with no own or inherited enumerable key (an own `__proto__` key counts). */
function isEmptyObject(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const _ in value) return false;
  return true;
}
