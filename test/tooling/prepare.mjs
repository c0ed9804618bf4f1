// package.json "prepare": npm runs it after `npm install` / `npm ci` in a clone, in a clone it packs for a git
// dependency, and in the folder of a folder dependency (`npm install ../csp-mock`). In that last case npm
// installs nothing there, neither the build tools (devDependencies) nor the runtime dependencies that the
// linked package loads from its own folder: install them first, with scripts off (this one is running).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** npm itself: the CLI that runs this script (npm_execpath), else the one on PATH. */
function npm(args) {
  const npmCli = process.env.npm_execpath;
  const [command, argv] = npmCli ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  const result = spawnSync(command, argv, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = ['typescript', 'yargs'].every((name) => existsSync(join(root, 'node_modules', name, 'package.json')));
if (!installed) {
  console.error(`csp-mock: installing its dependencies and build tools in ${root} to build it there`);
  npm(['install', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
}
npm(['run', 'build', '--silent']);
