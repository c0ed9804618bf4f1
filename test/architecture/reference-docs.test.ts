// The documents that describe the code name all of it: test/README.md every test folder, README.md's
// reference table every reference document.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${ROOT}${path}`, 'utf8');
const folders = (path: string): string[] =>
  readdirSync(`${ROOT}${path}`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** The reference documents: every README.md beside the code, the scenarios and the recordings, and the tests'. */
function referenceDocuments(): string[] {
  const underSrc = readdirSync(`${ROOT}src`, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('README.md'))
    .map((p) => `src/${p}`);
  return [...underSrc, 'scenarios/README.md', 'recordings/README.md', 'test/README.md'].sort();
}

describe('the reference documents name what the code holds', () => {
  it('test/README.md names every folder of test/ and every capability folder of test/integration/', () => {
    const text = read('test/README.md');
    const missing = [
      ...folders('test').filter((f) => !text.includes(`test/${f}/`)),
      ...folders('test/integration').filter((f) => !text.includes(`\`${f}/\``)),
    ];
    expect(missing).toEqual([]);
  });

  it("README.md's reference table links every reference document", () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Reference'));
    expect(referenceDocuments().filter((doc) => !table.includes(`](${doc})`))).toEqual([]);
  });
});
