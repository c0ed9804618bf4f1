import type { CloudStore } from '../domain/cloud-store.js';
import type { ActiveLock } from '../domain/locks.js';
import { escapeXml } from '../xml/codec.js';
import { davHref } from './paths.js';

function timeoutText(lock: ActiveLock): string {
  return lock.timeout === null ? 'Infinite' : `Second-${lock.timeout}`;
}

/** One DAV:activelock element, as in lockdiscovery and LOCK answers. */
function activeLockXml(store: CloudStore, base: string, lock: ActiveLock): string {
  const root = store.tree.node(lock.rootId);
  const rootHref = davHref(base, store.tree.pathNames(lock.rootId), root?.kind === 'container');
  return (
    '<D:activelock>' +
    `<D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>` +
    (lock.ownerXml ? `<D:owner>${lock.ownerXml}</D:owner>` : '') +
    `<D:timeout>${timeoutText(lock)}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(rootHref)}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

export function lockDiscoveryXml(store: CloudStore, base: string, locks: ActiveLock[]): string {
  return `<D:lockdiscovery>${locks.map((l) => activeLockXml(store, base, l)).join('')}</D:lockdiscovery>`;
}

export const SUPPORTED_LOCK_XML =
  '<D:supportedlock>' +
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '</D:supportedlock>';
