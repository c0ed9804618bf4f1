// `npm test`'s checks before vitest: the build when stale first (the tests' type-check reads dist/'s declarations
// through the package's own name), then prettier, eslint and tsc over the tests side by side, each printing its
// output when it ends. They share nothing and each is one process busy on one core: on two cores side by side
// they take the time of the slowest rather than of all three. Any failure fails the whole, after all have ended.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = spawnSync(process.execPath, ['test/tooling/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

/** npm itself: the CLI that runs this script (npm_execpath), else the one on PATH. */
const npmCli = process.env.npm_execpath;
const npm = (script) => [
  `npm run ${script}`,
  ...(npmCli ? [process.execPath, [npmCli, 'run', script, '--silent']] : ['npm', ['run', script, '--silent']]),
];
const CHECKS = [
  npm('format:check'),
  npm('lint'),
  ['tsc -p test/tsconfig.json', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/tsconfig.json']],
];

function run([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
    child.once('error', (err) => resolve({ name, ok: false, output: `${output}${err.message}\n` }));
    child.once('close', (code) => resolve({ name, ok: code === 0, output }));
  });
}

let failed = false;
await Promise.all(
  CHECKS.map(async (check) => {
    const { name, ok, output } = await run(check);
    process.stdout.write(output);
    if (!ok) {
      failed = true;
      console.error(`npm test: ${name} failed`);
    }
  }),
);
process.exit(failed ? 1 : 0);
