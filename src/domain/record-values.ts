import type { NodeRecord } from '../storage/schema.js';

/** The one empty dictionary and tag list records share (frozen: records are never changed in place). */
const EMPTY_DICT = Object.freeze(Object.create(null) as Record<string, string>);
export const NO_TAGS = Object.freeze([]) as unknown as string[];

/** A record's dictionary: the shared empty one, or a prototype-free copy of `source`. */
export function recordDict(source?: Record<string, string>): Record<string, string> {
  if (!source) return EMPTY_DICT;
  for (const key in source) if (Object.hasOwn(source, key)) return plainDict(source);
  return Object.hasOwn(source, '__proto__') ? plainDict(source) : EMPTY_DICT;
}

/** Names are compared in NFC; most names are ASCII, which needs no normalising (and no new string). */
export function nfc(name: string): string {
  return /^[\u0000-\u007f]*$/.test(name) ? name : name.normalize('NFC');
}

/** A string-keyed dictionary without a prototype: any key (`__proto__`, `constructor`) is plain data. */
export function plainDict(source?: Record<string, string>): Record<string, string> {
  const dict = Object.create(null) as Record<string, string>;
  if (source) for (const [k, v] of Object.entries(source)) dict[k] = v;
  return dict;
}

/** A loaded node (a fresh object the durable layer parsed) with its user-keyed maps made prototype-free. */
export function plainNode(node: NodeRecord): NodeRecord {
  node.tags = node.tags.length === 0 ? NO_TAGS : node.tags;
  node.metadata = recordDict(node.metadata);
  node.deadProps = recordDict(node.deadProps);
  return node;
}

/** The set under `key`, made on first use. */
export function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** The map under `key`, made on first use. */
export function mapOf<K, K2, V>(map: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}
