import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A fenced block of a markdown file, with the marker comment on the line before it (if any). */
export interface ExampleBlock {
  /** The markdown file, relative to the repository. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  marker?: { kind: 'not-run'; reason: string } | { kind: 'file'; path: string } | { kind: 'unknown'; text: string };
}

/** The markdown files whose examples are run: the README, the reference READMEs beside what they describe. */
export function exampleFiles(root: string): string[] {
  const files = ['README.md', 'scenarios/README.md', 'recordings/README.md', 'test/README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'README.md') files.push(relative(root, path));
    }
  };
  walk(join(root, 'src'));
  return files.filter((f) => existsSync(join(root, f)));
}

const MARKER = /^<!--\s*(.*?)\s*-->$/;

/** Every fenced block of `text`, in order. A fence is three backticks at the start of a line. */
export function extractBlocks(file: string, text: string): ExampleBlock[] {
  const lines = text.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? MARKER.exec(lines[before]!.trim()) : null;
    blocks.push({
      file,
      line: i + 1,
      lang: open[1]!,
      code: lines.slice(i + 1, end).join('\n') + '\n',
      marker: comment ? parseMarker(comment[1]!) : undefined,
    });
    i = end;
  }
  return blocks;
}

function parseMarker(text: string): NonNullable<ExampleBlock['marker']> {
  const notRun = /^not-run:\s*(.*)$/.exec(text);
  if (notRun) return { kind: 'not-run', reason: notRun[1]! };
  const file = /^file:\s*(\S+)$/.exec(text);
  if (file) return { kind: 'file', path: file[1]! };
  return { kind: 'unknown', text };
}

/** How a block is run: the kind decides, or why it cannot be. */
export type BlockPlan =
  | { run: 'skip'; reason: string }
  | { run: 'file'; path: string }
  | { run: 'shell' }
  | { run: 'vitest' }
  | { run: 'script' }
  | { run: 'node'; commonjs: boolean }
  | { run: 'impossible'; why: string };

export function planBlock(block: ExampleBlock): BlockPlan {
  const m = block.marker;
  if (m?.kind === 'unknown') return { run: 'impossible', why: `unknown marker <!-- ${m.text} -->` };
  if (m?.kind === 'not-run') {
    return m.reason.trim() === ''
      ? { run: 'impossible', why: 'not-run without a reason' }
      : { run: 'skip', reason: m.reason };
  }
  if (m?.kind === 'file') return { run: 'file', path: m.path };
  switch (block.lang) {
    case 'sh':
    case 'bash':
    case 'shell':
      return { run: 'shell' };
    case 'ts':
    case 'typescript':
      return /from 'vitest'/.test(block.code) ? { run: 'vitest' } : { run: 'script' };
    case 'js':
    case 'javascript':
      return { run: 'node', commonjs: /\brequire\(/.test(block.code) };
    default:
      return {
        run: 'impossible',
        why: `a \`\`\`${block.lang || '(no language)'} block needs <!-- file: PATH --> or <!-- not-run: reason -->`,
      };
  }
}

/**
 * Commands the shell blocks find first on PATH: `npx csp-mock` and `csp-mock` send the words, the folder and the
 * environment to `cliUrl`, where the test runs the command in its own process (servers to their ready lines on a
 * free port, then closed); `requests --follow` runs the built bin until it prints; xdg-open fetches.
 */
export function writeShims(dir: string, bin: string, cliUrl: string): void {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string): void => {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  };
  write(
    'npx',
    `#!/usr/bin/env bash
[ "$1" = "--no" ] && shift
if [ "$1" = "csp-mock" ]; then shift; exec csp-mock "$@"; fi
echo "readme-examples: npx $1 is not something this test runs" >&2; exit 2
`,
  );
  const fetchUrl = `#!/usr/bin/env bash\nexec curl -fsS -o /dev/null "\${1%%#*}"\n`;
  write('xdg-open', fetchUrl);
  write('open', fetchUrl);
  writeFileSync(join(dir, 'csp-mock-follow.cjs'), FOLLOW.replace('__BIN__', JSON.stringify(bin)));
  writeFileSync(join(dir, 'csp-mock-client.cjs'), CLIENT.replace('__URL__', JSON.stringify(cliUrl)));
  write(
    'csp-mock',
    `#!/usr/bin/env bash
cmd=""; for a in "$@"; do case "$a" in -*) ;; *) cmd="$a"; break;; esac; done
follow=0; for a in "$@"; do case "$a" in --follow|-f) follow=1;; esac; done
[ "$cmd" = requests ] && [ "$follow" = 1 ] && exec node ${JSON.stringify(join(dir, 'csp-mock-follow.cjs'))} "$@"
exec node ${JSON.stringify(join(dir, 'csp-mock-client.cjs'))} "$@"
`,
  );
}

/** What the csp-mock shim sends: the words after `csp-mock`, and the folder and environment it runs in. */
export interface ShimCall {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

// The csp-mock shim's client, as CommonJS run by node (no TypeScript: it runs outside vitest): one request with
// the words, the folder and the environment; it prints what the command printed and exits with its status.
const CLIENT = `'use strict';
const { request } = require('node:http');
const call = JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env: process.env });
const req = request(__URL__, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (text += chunk));
  res.on('end', () => {
    const run = JSON.parse(text);
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    process.exitCode = run.code;
  });
});
req.on('error', (err) => {
  console.error('readme-examples: the test that runs csp-mock did not answer: ' + err.message);
  process.exitCode = 2;
});
req.end(call);
`;

// \`requests --follow\` runs until stopped: the built bin, poking the mock until it prints a request, then stopped.
const FOLLOW = `'use strict';
const { spawn } = require('node:child_process');
const BIN = __BIN__;
const args = process.argv.slice(2);
const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
let stopping = false;
const stop = () => { if (!stopping) { stopping = true; child.kill('SIGTERM'); } };
// A command that prints nothing at all is stuck: the limit is the block's own, not a guess at speed.
const limit = setTimeout(() => { console.error('readme-examples: csp-mock ' + args.join(' ') + ' never printed'); child.kill('SIGKILL'); process.exit(1); }, 240000);
let out = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  out += chunk;
  if (out.trim() !== '') stop();
});
const url = process.env.CSP_MOCK_URL;
const auth = 'Basic ' + Buffer.from('demo:demo').toString('base64');
const poke = setInterval(() => { fetch(url + '/v2', { headers: { Authorization: auth } }).catch(() => {}); }, 250);
child.on('close', (code, signal) => {
  clearTimeout(limit);
  clearInterval(poke);
  if (!stopping) { console.error('readme-examples: csp-mock ' + args.join(' ') + ' exited before it printed'); process.exit(code || 1); }
  if (signal === 'SIGTERM') process.exit(0);
  process.exit(code === null ? 1 : code);
});
`;
