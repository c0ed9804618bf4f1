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
 * Commands the shell blocks find first on PATH: `npx csp-mock` and `csp-mock` run the built bin; servers run
 * to their ready line on a free port and stop; `requests --follow` runs until it prints; xdg-open fetches.
 */
export function writeShims(dir: string, bin: string): void {
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
  writeFileSync(join(dir, 'csp-mock-server.cjs'), SHIM.replace('__BIN__', JSON.stringify(bin)));
  // Most commands exit by themselves: run the bin straight away (one node start, not two).
  write(
    'csp-mock',
    `#!/usr/bin/env bash
cmd=""; for a in "$@"; do case "$a" in -*) ;; *) cmd="$a"; break;; esac; done
follow=0; for a in "$@"; do case "$a" in --follow|-f) follow=1;; esac; done
case "$cmd" in
  serve|record|replay) exec node ${JSON.stringify(join(dir, 'csp-mock-server.cjs'))} "$@";;
  requests) [ "$follow" = 1 ] && exec node ${JSON.stringify(join(dir, 'csp-mock-server.cjs'))} "$@";;
esac
exec node ${JSON.stringify(bin)} "$@"
`,
  );
}

// The csp-mock shim, as CommonJS run by node (no TypeScript: it runs outside vitest).
const SHIM = `'use strict';
const { spawn } = require('node:child_process');
const BIN = __BIN__;
let args = process.argv.slice(2);
const command = args.find((a) => !a.startsWith('-'));
const help = args.includes('--help') || args.includes('-h');
const server = ['serve', 'record', 'replay'].includes(command) && !help;
const follow = command === 'requests' && (args.includes('--follow') || args.includes('-f'));
if (server) {
  const kept = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port' || args[i] === '-p') i++;
    else if (!args[i].startsWith('--port=')) kept.push(args[i]);
  }
  args = [...kept, '--port', '0'];
}
const child = spawn(process.execPath, [BIN, ...args], { stdio: server || follow ? ['ignore', 'pipe', 'inherit'] : 'inherit' });
let stopping = false;
const stop = () => { if (!stopping) { stopping = true; child.kill('SIGTERM'); } };
// A server that prints no ready line at all is stuck: a busy machine (other files' examples beside this one)
// makes a start with --generate or a new CA take long, so the limit is the block's own, not a guess at speed.
const limit = setTimeout(() => { console.error('readme-examples: csp-mock ' + args.join(' ') + ' never got ready'); child.kill('SIGKILL'); process.exit(1); }, 240000);
let poke;
let asked = false;
if (server || follow) {
  let out = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    out += chunk;
    const ready = /listening on (http\\S+)/.exec(out);
    if (follow && out.trim() !== '') stop();
    // An answer from the server proves it is past its start (its signal handlers are set): then stop it.
    else if (server && ready && !asked) {
      asked = true;
      fetch(ready[1] + '/__admin/scenario').then((res) => res.arrayBuffer()).then(stop, stop);
    }
  });
}
if (follow) {
  const url = process.env.CSP_MOCK_URL;
  const auth = 'Basic ' + Buffer.from('demo:demo').toString('base64');
  poke = setInterval(() => { fetch(url + '/v2', { headers: { Authorization: auth } }).catch(() => {}); }, 250);
}
child.on('close', (code, signal) => {
  clearTimeout(limit);
  if (poke) clearInterval(poke);
  if ((server || follow) && !stopping) { console.error('readme-examples: csp-mock ' + args.join(' ') + ' exited before it was ready'); process.exit(code || 1); }
  if (follow && signal === 'SIGTERM') process.exit(0);
  process.exit(code === null ? 1 : code);
});
`;
