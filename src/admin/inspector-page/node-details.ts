import { getBlob } from './api.js';
import { byId, fields, formatBytes, formatDate, h, replace } from './dom.js';
import type { InspectedNode } from '../../http/wire-types.js';

/** Previews read at most this much of a text file. */
const TEXT_PREVIEW_BYTES = 64 * 1024;
const IMAGE_PREVIEW_BYTES = 8 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|x-sh)|image\/svg\+xml$)|\+(json|xml)$/;

let previewUrl: string | undefined;
let shown = 0;

const contentUrl = (user: string, id: string): string =>
  `inspector/content?user=${encodeURIComponent(user)}&id=${encodeURIComponent(id)}`;

function code(text: string): HTMLElement {
  return h('code', { class: 'address' }, text);
}

/** The details of one object: what the store holds, both addresses, locks, a download and a preview. */
export function showNodeDetails(user: string, node: InspectedNode, onError: (err: unknown) => void): void {
  const panel = byId('file-details');
  const ticket = ++shown;
  const file = node.kind === 'file';
  const metadata = Object.entries(node.metadata);
  const download = file ? h('button', { type: 'button' }, 'Download') : null;
  download?.addEventListener('click', () => void saveFile(user, node).catch(onError));
  const preview = h('div', { class: 'preview' });
  replace(
    panel,
    h(
      'div',
      { class: 'details-head' },
      h('h3', {}, h('span', { class: `icon ${file ? 'file' : 'folder'}`, 'aria-hidden': 'true' }), node.name),
      download,
    ),
    fields([
      ['Kind', file ? 'file' : `container, ${node.members ?? 0} member${node.members === 1 ? '' : 's'}`],
      ['Size', file ? `${formatBytes(node.bytes)} (${node.bytes.toLocaleString()} bytes)` : null],
      ['MIME type', file ? node.mimeType : null],
      ['Version', String(node.version)],
      ['Modified', formatDate(node.modified)],
      ['Created', formatDate(node.created)],
      ['In recycle bin since', node.recycled ? formatDate(node.recycled) : null],
      ['Public', node.public ? 'yes' : null],
      ['Tags', node.tags.length ? node.tags.map((t) => h('span', { class: 'tag' }, t)) : '—'],
      [
        'Metadata',
        metadata.length
          ? h(
              'table',
              { class: 'kv' },
              h('tbody', {}, ...metadata.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v)))),
            )
          : '—',
      ],
      [
        'WebDAV locks',
        node.locks.length ? h('ul', { class: 'plain' }, ...node.locks.map((l) => h('li', {}, lockText(l)))) : 'none',
      ],
      ['REST address', code(location.origin + node.rest)],
      [
        'WebDAV path',
        node.dav ? h('a', { href: node.dav, target: '_blank', rel: 'noopener' }, code(node.dav)) : '— (recycled)',
      ],
      ['Id', code(node.id)],
    ]),
    preview,
  );
  panel.hidden = false;
  if (file) void showPreview(user, node, preview, () => ticket === shown).catch(onError);
}

function lockText(l: InspectedNode['locks'][number]): string {
  const where = l.direct ? 'on this object' : 'inherited from a container above';
  const until = l.expires ? `until ${formatDate(l.expires)}` : 'no expiry';
  const owner = l.owner.replace(/<[^>]*>/g, '').trim();
  return `${l.scope}, depth ${l.depth}, ${where}, ${until}${owner ? `, owner ${owner}` : ''}`;
}

async function showPreview(
  user: string,
  node: InspectedNode,
  into: HTMLElement,
  current: () => boolean,
): Promise<void> {
  if (TEXT_TYPES.test(node.mimeType)) {
    const text = await (await getBlob(contentUrl(user, node.id), TEXT_PREVIEW_BYTES)).text();
    if (!current()) return;
    const cut =
      node.bytes > TEXT_PREVIEW_BYTES
        ? h('p', { class: 'muted' }, `First ${formatBytes(TEXT_PREVIEW_BYTES)} of ${formatBytes(node.bytes)}.`)
        : null;
    replace(into, h('h4', {}, 'Preview'), h('pre', { class: 'text-preview' }, text), cut);
  } else if (node.mimeType.startsWith('image/') && node.bytes <= IMAGE_PREVIEW_BYTES) {
    const blob = await getBlob(contentUrl(user, node.id));
    if (!current()) return;
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = URL.createObjectURL(new Blob([blob], { type: node.mimeType }));
    into.replaceChildren(
      h('h4', {}, 'Preview'),
      h('img', { src: previewUrl, alt: `Preview of ${node.name}`, class: 'image-preview' }),
    );
  }
}

async function saveFile(user: string, node: InspectedNode): Promise<void> {
  const blob = await getBlob(contentUrl(user, node.id));
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: node.name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
