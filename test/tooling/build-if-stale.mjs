// `npm start` and `npm test`: build dist/ only when its sources changed since the last build (`npm run build` leaves
// dist/.built, whose time is the build's start), so `npm ci && npm start` (or `npm test`, as .ci/run does) compiles
// once and an edit is still compiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The newest change under `path`: files, and folders (a deleted or renamed file changes its folder). */
function newestChange(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function builtAt() {
  try {
    return statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return -Infinity;
  }
}

// dist/tools/ too: the benchmark and the support clients, compiled from test/.
const sources = [
  'src',
  'tsconfig.json',
  'package.json',
  'test/bench',
  'test/support',
  'test/tooling/tsconfig.tools.json',
].map((p) => newestChange(join(root, p)));
if (Math.max(...sources) >= builtAt()) {
  console.log('csp-mock: compiling src/ into dist/ (tsc)...');
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli
    ? [process.execPath, [npmCli, 'run', 'build', '--silent']]
    : ['npm', ['run', 'build', '--silent']];
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
