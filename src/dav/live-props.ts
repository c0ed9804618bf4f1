import type { CloudStore } from '../domain/cloud-store.js';
import type { NodeRecord } from '../domain/model.js';
import { escapeXml } from '../xml/codec.js';
import { davEtag } from './conditions.js';
import { SUPPORTED_LOCK_XML, lockDiscoveryXml } from './lock-xml.js';

/** Live properties (all in DAV:) the server computes; clients cannot set them. */
export const LIVE_PROPS = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'lockdiscovery',
  'resourcetype',
  'supportedlock',
  'quota-used-bytes',
  'quota-available-bytes',
] as const;

/** allprop returns every live property: clients such as the npm webdav client read quota from allprop. */
export const ALLPROP_LIVE = LIVE_PROPS;

export function isLiveProp(local: string): boolean {
  return (LIVE_PROPS as readonly string[]).includes(local);
}

export interface PropContext {
  store: CloudStore;
  user: string;
  base: string;
  /** The user's stored bytes; walks the whole tree, so one answer computes it at most once. */
  usedBytes: () => number;
}

/** A context for one multistatus answer. */
export function propContext(store: CloudStore, user: string, base: string): PropContext {
  let used: number | undefined;
  return { store, user, base, usedBytes: () => (used ??= store.storedBytes(user)) };
}

const el = (name: string, inner: string): string => (inner === '' ? `<D:${name}/>` : `<D:${name}>${inner}</D:${name}>`);

/** A live property of a node as a serialised element, or undefined when the node has none of it. */
export function liveProp(ctx: PropContext, node: NodeRecord, name: string): string | undefined {
  const isFile = node.kind === 'file';
  switch (name) {
    case 'creationdate':
      return el(name, new Date(node.created * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    case 'displayname':
      return el(name, escapeXml(node.parentId === null ? '' : node.name));
    case 'getcontentlength':
      return isFile ? el(name, String(node.bytes)) : undefined;
    case 'getcontenttype':
      return isFile ? el(name, escapeXml(node.mimeType || 'application/octet-stream')) : undefined;
    case 'getetag': {
      const etag = davEtag(node);
      return etag ? el(name, escapeXml(etag)) : undefined;
    }
    case 'getlastmodified':
      return el(name, new Date(node.modified * 1000).toUTCString());
    case 'lockdiscovery':
      return lockDiscoveryXml(ctx.store, ctx.base, ctx.store.locks.covering(node.id));
    case 'resourcetype':
      return el(name, isFile ? '' : '<D:collection/>');
    case 'supportedlock':
      return SUPPORTED_LOCK_XML;
    case 'quota-used-bytes':
      return isFile ? undefined : el(name, String(ctx.usedBytes()));
    case 'quota-available-bytes':
      return isFile ? undefined : el(name, String(Math.max(0, ctx.store.storageAllocated(ctx.user) - ctx.usedBytes())));
    default:
      return undefined;
  }
}
