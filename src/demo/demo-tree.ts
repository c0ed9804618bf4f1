import type { StateBuilder } from '../domain/state-builder.js';

// A 1x1 PNG and a one-page PDF, small enough to inline, real enough for a viewer to open.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * The demo tree every user starts with:
 *   /Documents/readme.txt (tagged "important", metadata author), /Documents/notes.md,
 *   /Documents/Reports/q3-report.pdf, /Photos/sunset.png (tagged "holiday"), /Music/, /hello.json (public)
 */
export function seedDemoTree(state: StateBuilder, user: string): void {
  const root = state.root(user);
  const documents = state.addContainer(user, root.id, 'Documents');
  const photos = state.addContainer(user, root.id, 'Photos');
  state.addContainer(user, root.id, 'Music');
  const reports = state.addContainer(user, documents.id, 'Reports');

  state.addFile(
    user,
    documents.id,
    { name: 'readme.txt', mimeType: 'text/plain', tags: ['important'], metadata: { author: user } },
    Buffer.from(`Welcome, ${user}. This file lives in the csp-mock demo tree.\n`),
  );
  state.addFile(
    user,
    documents.id,
    { name: 'notes.md', mimeType: 'text/markdown' },
    Buffer.from('# Notes\n\n- try the REST and /dav views\n'),
  );
  state.addFile(user, reports.id, { name: 'q3-report.pdf', mimeType: 'application/pdf' }, PDF);
  state.addFile(user, photos.id, { name: 'sunset.png', mimeType: 'image/png', tags: ['holiday'] }, PNG);
  state.addFile(
    user,
    root.id,
    { name: 'hello.json', mimeType: 'application/json', public: true },
    Buffer.from('{"hello":"world"}\n'),
  );
}
