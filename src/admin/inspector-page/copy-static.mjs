// The inspector page's HTML, CSS and icon go beside its compiled modules in dist/, as they are.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';

const from = new URL('./', import.meta.url);
const to = new URL('../../../dist/admin/inspector-page/', import.meta.url);
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (/\.(html|css|svg)$/.test(name)) copyFileSync(new URL(name, from), new URL(name, to));
}
