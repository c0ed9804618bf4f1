import type { RunningMock } from '../server.js';
import type { Target } from './scenarios.js';

export interface PreparedMock {
  target: Target;
  /** Same paths, but uploads go to a separate container so warm-up names never clash. */
  uploadWarmTarget: Target;
  /** Bodies the mock really serves, so the baseline sends the same number of bytes. */
  entryBody: string;
  listingBody: string;
  downloadBody: Buffer;
}

const LISTING_ITEMS = 40;
const MIB = 1024 * 1024;

/** Fills the mock through its store: a container of 40 small files, a 1 MiB file, upload folders. */
export async function prepareMock(mock: RunningMock): Promise<PreparedMock> {
  const store = mock.store;
  const root = store.root('demo');
  const listing = await store.createContainer('demo', root.id, 'listing');
  for (let i = 0; i < LISTING_ITEMS; i++) {
    await store.createFile('demo', listing.id, { name: `file-${String(i).padStart(2, '0')}.txt`, mimeType: 'text/plain' }, Buffer.from(`item ${i}\n`));
  }
  const downloadBody = Buffer.alloc(MIB, 'd');
  const big = await store.createFile('demo', root.id, { name: 'one-mib.bin' }, downloadBody);
  const uploads = await store.createContainer('demo', root.id, 'uploads');
  const warmUploads = await store.createContainer('demo', root.id, 'warm-up-uploads');
  const target: Target = {
    listingPath: `/v2/containers/${listing.id}/contents`,
    uploadPath: `/v2/containers/${uploads.id}/contents`,
    downloadPath: `/v2/files/${big.id}/content`,
  };
  const headers = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };
  const entryBody = await (await fetch(`${mock.url}/v2`, { headers })).text();
  const listingBody = await (await fetch(`${mock.url}${target.listingPath}`, { headers: { ...headers, 'X-Cloud-Depth': '1' } })).text();
  return {
    target,
    uploadWarmTarget: { ...target, uploadPath: `/v2/containers/${warmUploads.id}/contents` },
    entryBody,
    listingBody,
    downloadBody,
  };
}
