// What the web-app peer tests share: Debian's Chromium, a page server on its own port, the README's examples, and the flow.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { extractBlocks } from '../helpers/readme-blocks.js';
import { launchChromium as launchBrowser } from '../helpers/chromium.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** A block of the README written to `path` by its `<!-- file: PATH -->` marker, as the README shows it. */
export function readmeFile(path: string): string {
  const block = extractBlocks('README.md', readFileSync(README, 'utf8')).find(
    (b) => b.marker?.kind === 'file' && b.marker.path === path,
  );
  if (!block) throw new Error(`README.md has no <!-- file: ${path} --> block`);
  return block.code;
}

/** Chromium without a sandbox, GPU, QUIC or background traffic; every *.test name resolves to this machine. */
export function launchChromium(): Promise<Browser> {
  return launchBrowser(['--host-resolver-rules=MAP *.test 127.0.0.1']);
}

/** Serves fixed pages on a loopback port (a dev server's stand-in): path -> [headers, body]. */
export async function pageServer(
  pages: Record<string, { body: string; headers?: Record<string, string> }>,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0]!];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the page saw of each step of the flow. */
export interface FlowSeen {
  entry: number;
  folder: [number, string | null];
  upload: [number, string | null];
  put: number;
  readBack: [number, string, string | null];
  conditional: number;
  propfind: [number, boolean];
}

/**
 * The flow a web app runs against the service, in the page: the entry document, a folder, a FormData upload
 * (its Location), a PUT read back with its ETag, If-None-Match -> 304, PROPFIND Depth 1 on /dav. `base` is
 * the mock ('' for the page's own origin, through a proxy).
 */
export async function runFlow(base: string): Promise<FlowSeen> {
  const headers = { Authorization: `Basic ${btoa('demo:demo')}`, 'X-Client-Specification': '2' };
  const xml = (text: string): Document => new DOMParser().parseFromString(text, 'text/xml');
  const entry = await fetch(`${base}/v2`, { headers });
  const root = xml(await entry.text())
    .querySelector('rootContainer')!
    .getAttribute('xlink:href')!;
  const name = `web-${Math.random().toString(36).slice(2)}`;
  const folder = await fetch(`${root}/contents`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/vnd.csp.container-info+xml' },
    body: `<container><name>${name}</name></container>`,
  });
  const folderUrl = folder.headers.get('Location');
  const form = new FormData();
  form.append('file', new Blob(['first\n'], { type: 'text/plain' }), 'note.txt');
  const upload = await fetch(`${folderUrl}/contents`, { method: 'POST', headers, body: form });
  const fileUrl = upload.headers.get('Location');
  const put = await fetch(`${fileUrl}/content`, { method: 'PUT', headers, body: 'second\n' });
  const read = await fetch(`${fileUrl}/content`, { headers, cache: 'no-store' });
  const etag = read.headers.get('ETag');
  const readBack: [number, string, string | null] = [read.status, await read.text(), etag];
  const conditional = await fetch(`${fileUrl}/content`, {
    headers: { ...headers, 'If-None-Match': etag ?? '' },
    cache: 'no-store',
  });
  const propfind = await fetch(`${base}/dav/`, { method: 'PROPFIND', headers: { ...headers, Depth: '1' } });
  return {
    entry: entry.status,
    folder: [folder.status, folderUrl],
    upload: [upload.status, fileUrl],
    put: put.status,
    readBack,
    conditional: conditional.status,
    propfind: [propfind.status, (await propfind.text()).includes(`/dav/${name}/`)],
  };
}

/** The status a page gets for one request (`[url, init]`), or the browser's error (a CORS refusal is a TypeError). */
export async function statusOf([url, init]: readonly [string, RequestInit]): Promise<number | string> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}
