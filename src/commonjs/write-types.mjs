// The CommonJS build's types (dist/cjs/*.d.cts): tsc's declarations reachable from dist/index.d.ts and
// dist/playwright/index.d.ts, each
// copied as .d.cts with its relative imports renamed .js -> .cjs. A .d.cts may not re-export the ES
// module build's .d.ts (TypeScript: a CommonJS file cannot require an ES module), so it holds its own.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const DIST = resolve('dist');
const OUT = join(DIST, 'cjs');
const RELATIVE = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.js\2/g;

const seen = new Set();
const queue = [join(DIST, 'index.d.ts'), join(DIST, 'playwright', 'index.d.ts')];
while (queue.length > 0) {
  const file = queue.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(RELATIVE)) queue.push(resolve(dirname(file), `${match[3]}.d.ts`));
  const target = join(OUT, relative(DIST, file)).replace(/\.d\.ts$/, '.d.cts');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(
    target,
    text.replace(RELATIVE, (_all, lead, quote, path) => `${lead}${quote}${path}.cjs${quote}`),
  );
}
