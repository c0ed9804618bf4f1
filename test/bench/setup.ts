import type { RunningMock } from 'csp-mock';
import type { Canned } from './baseline-app.js';
import { HEADERS, type Target } from './scenarios.js';

export interface PreparedMock {
  target: Target;
  /** The file a large PUT rewrites (RSS measurement). */
  bigUploadPath: string;
  /** Bodies the mock really serves, so the baselines send the same bytes. */
  entity: Canned;
  listing: Canned;
  big: Buffer;
}

const LISTING_ITEMS = 40;
const MIB = 1024 * 1024;

/** Fills the mock through its store: a small file, a 40-file container, an 8 MiB file, upload folders. */
export async function prepareMock(mock: RunningMock, rounds: number): Promise<PreparedMock> {
  const store = mock.store;
  const root = store.root('demo');
  const small = await store.createFile(
    'demo',
    root.id,
    { name: 'small.txt', mimeType: 'text/plain' },
    Buffer.from('small file\n'),
  );
  const listing = await store.createContainer('demo', root.id, 'listing');
  for (let i = 0; i < LISTING_ITEMS; i++) {
    await store.createFile(
      'demo',
      listing.id,
      { name: `file-${String(i).padStart(2, '0')}.txt`, mimeType: 'text/plain' },
      Buffer.from(`item ${i}\n`),
    );
  }
  const big = Buffer.alloc(8 * MIB, 'd');
  const bigFile = await store.createFile('demo', root.id, { name: 'eight-mib.bin' }, big);
  const bigUpload = await store.createFile('demo', root.id, { name: 'rss-upload.bin' }, Buffer.alloc(0));
  const uploadPaths: string[] = [];
  // Folder 0 takes the warm-up uploads; one more per round and server.
  for (let i = 0; i <= rounds; i++) {
    const folder = await store.createContainer('demo', root.id, `uploads-${i}`);
    uploadPaths.push(`/v2/containers/${folder.id}/contents`);
  }
  const target: Target = {
    entityPath: `/v2/files/${small.id}`,
    listingPath: `/v2/containers/${listing.id}/contents`,
    uploadPaths,
    bigRestPath: `/v2/files/${bigFile.id}/content`,
    bigDavPath: '/dav/eight-mib.bin',
  };
  return {
    target,
    bigUploadPath: `/v2/files/${bigUpload.id}/content`,
    entity: await served(mock, target.entityPath, HEADERS),
    listing: await served(mock, target.listingPath, { ...HEADERS, 'X-Cloud-Depth': '1' }),
    big,
  };
}

async function served(mock: RunningMock, path: string, headers: Record<string, string>): Promise<Canned> {
  const res = await fetch(`${mock.url}${path}`, { headers });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return { type: res.headers.get('content-type') ?? 'application/octet-stream', body: await res.text() };
}
