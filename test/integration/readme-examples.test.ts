// Every example block of the README and of the reference READMEs, run as written (test/README.md says how).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { CLAIM_HELD, CLAIMS_PRELUDE, curlsWithoutStatusCheck, withClaimChecks } from '../helpers/example-claims.js';
import {
  exampleFiles,
  extractBlocks,
  planBlock,
  writeShims,
  type ExampleBlock,
  type ShimCall,
} from '../helpers/readme-blocks.js';
import { cliHere, type CliRun } from './cli/in-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The installed command: whatever package.json's bin names (built by npm run build); `requests --follow` runs it. */
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['csp-mock']!,
);
/** Inside the package, so that `import 'csp-mock'` in an example resolves to this checkout's build. */
const BLOCKS_DIR = join(ROOT, '.tmp', `readme-blocks-${process.pid}`);
const SHIMS = mkdtempSync(join(tmpdir(), 'csp-mock-readme-shims-'));
mkdirSync(BLOCKS_DIR, { recursive: true });
// The HTTPS examples make a local CA: here, never in the user's configuration folder (children inherit it).
const CA_DIR = mkdtempSync(join(tmpdir(), 'csp-mock-readme-ca-'));
process.env['CSP_MOCK_CA_DIR'] = CA_DIR;
afterAll(() => {
  cliRunner.close();
  rmSync(BLOCKS_DIR, { recursive: true, force: true });
  rmSync(SHIMS, { recursive: true, force: true });
  rmSync(CA_DIR, { recursive: true, force: true });
});

const files = exampleFiles(ROOT).map((file) => ({
  file,
  text: readFileSync(join(ROOT, file), 'utf8'),
}));
const blocks = files.flatMap(({ file, text }) => extractBlocks(file, text));
/** A block with a server start under --generate or a new CA, beside the other files' blocks on a busy machine. */
const BLOCK_TIMEOUT_MS = 300_000;
const where = (b: ExampleBlock): string => `${b.file}:${b.line}`;
const fileName = (b: ExampleBlock, ext: string): string =>
  join(BLOCKS_DIR, `${b.file.replace(/[/.]/g, '_')}-L${b.line}${ext}`);

/** 8080 in an example stands for the mock the test started. */
const withPort = (code: string, port: number): string => code.replaceAll('8080', String(port));

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
    child.stdin.end(options.input ?? '');
  });
}

describe('the README is a guide', () => {
  const readme = files.find((f) => f.file === 'README.md')!.text;

  it('shows how to run it and how to test it on its first screen, and stays under 520 lines', () => {
    const firstScreen = readme.split('\n').slice(0, 60).join('\n');
    for (const words of ['npm ci && npm start', 'bash .ci/run', 'npm test', 'npx --no csp-mock']) {
      expect(firstScreen).toContain(words);
    }
    expect(readme.split('\n').length).toBeLessThan(520);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const { file, text } of files) {
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const linked = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), path);
        if (!existsSync(linked)) broken.push(`${file}: ${target}`);
        else if (anchor !== undefined && linked.endsWith('.md')) {
          const slugs = [...readFileSync(linked, 'utf8').matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!));
          if (!slugs.includes(anchor)) broken.push(`${file}: ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('marks every block it does not run, with a reason', () => {
    const impossible = blocks.flatMap((b) => {
      const plan = planBlock(b);
      return plan.run === 'impossible' ? [`${where(b)}: ${plan.why}`] : [];
    });
    expect(impossible).toEqual([]);
  });

  it('checks the status of every curl in a shell example (-f, --fail-with-body, or a printed %{http_code})', () => {
    const unchecked = blocks.flatMap((b) =>
      ['sh', 'bash', 'shell'].includes(b.lang) ? curlsWithoutStatusCheck(b.code).map((c) => `${where(b)}: ${c}`) : [],
    );
    expect(unchecked).toEqual([]);
  });
});

describe('an example is checked for what it claims', () => {
  const claimed = async (code: string): Promise<{ code: number | null; output: string; claims: number }> => {
    const checked = withClaimChecks(code);
    const input = `${CLAIMS_PRELUDE}${checked.code}`;
    const result = await run('bash', ['-euo', 'pipefail', '-s'], { cwd: tmpdir(), env: process.env, input });
    return { ...result, claims: checked.claims };
  };

  it('a "# =>" claim holds when its pieces appear in order, "..." and claim lines standing for anything', async () => {
    const result = await claimed(
      `printf '<a><b>1</b><c>2</c></a>' # => <a>...<c>2</c>\nprintf 'x\\ny\\nz'\n# => x\n# => z\n`,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.claims).toBe(2);
    expect(result.output.split('\n').filter((l) => l === CLAIM_HELD)).toHaveLength(2);
  });

  it('a claimed output that is not printed fails the block, naming the missing piece', async () => {
    const result = await claimed(`printf '{"value":[]}' # => {"value":["{\\"cdmi_event\\":\n`);
    expect(result.code).toBe(1);
    expect(result.output).toContain('the output above lacks: {"value":["{\\"cdmi_event\\":');
  });

  it('a failed command under a claim fails the block, and pieces out of order do not hold', async () => {
    expect((await claimed(`false # => \n`)).code).not.toBe(0);
    expect((await claimed(`printf 'b a' # => a...b\n`)).code).toBe(1);
  });

  it('a claim after another comment is refused, since the comment would hide the check', () => {
    expect(() => withClaimChecks('echo 1 # one\n# => 1\n')).toThrow(/must follow the command/);
  });

  it('finds the curls that pass on a 4xx: the CDMI example that answered 400 under curl -s', () => {
    const old = `curl -s -u demo:demo -X PUT -H "$H" -d '{"metadata":{}}' $B/laptop\ncurl -s -u demo:demo "$B/laptop?values:1"   # {"value":...\n`;
    expect(curlsWithoutStatusCheck(old)).toHaveLength(2);
    const checked = `curl -sSf $U\ncurl --fail-with-body $U\ncsp() { curl -fsS "$@"; }\ntest "$(curl -s -o /dev/null -w '%{http_code}' $U)" = 500\ncurl -s -F 'file=@x' \\\n  -f $U\n`;
    expect(curlsWithoutStatusCheck(checked)).toEqual([]);
    expect(curlsWithoutStatusCheck(`curl -s -F 'file=@x' $U # curl -f in a comment\n`)).toHaveLength(1);
  });
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

// Test files shown in the READMEs: their tests run here, as part of this file.
for (const block of blocks.filter((b) => planBlock(b).run === 'vitest')) {
  const path = fileName(block, '.vitest.ts');
  writeFileSync(path, `// ${where(block)}\n${block.code}`);
  await import(/* @vite-ignore */ path);
}

/**
 * A TypeScript script runs in this process with the scratch folder as the current folder, which is one per
 * process: the scripts of files running side by side take turns.
 */
let scriptTurn = Promise.resolve();
async function inTurn(run: () => Promise<void>): Promise<void> {
  const before = scriptTurn;
  let done = (): void => undefined;
  scriptTurn = new Promise((resolve) => (done = resolve));
  await before;
  try {
    await run();
  } finally {
    done();
  }
}

/**
 * The shell examples' `csp-mock` commands run here, as the bin runs them (runCli), in their block's folder and
 * environment: a Node process per command was most of this file's CPU. They take turns with the scripts, since each
 * changes the process's current folder and environment for its run. A listening command (serve, record, replay)
 * runs on a free port to its ready lines and is closed.
 */
async function commandHere({ argv, cwd, env }: ShimCall): Promise<CliRun> {
  const command = argv.find((a) => !a.startsWith('-')) ?? '';
  const listening = ['serve', 'record', 'replay'].includes(command) && !argv.some((a) => a === '--help' || a === '-h');
  const words = listening ? [...withoutPort(argv), '--port', '0'] : argv;
  // The block's variables for the run, and none of this process's others.
  const unset = Object.keys(process.env).filter((name) => !(name in env));
  const run = await cliHere(words, { cwd, env: { ...Object.fromEntries(unset.map((n) => [n, undefined])), ...env } });
  await run.context.running?.close();
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** The words without a --port (-p) option. */
function withoutPort(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port' || argv[i] === '-p') i++;
    else if (!argv[i]!.startsWith('--port=')) kept.push(argv[i]!);
  }
  return kept;
}

const cliRunner = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    void inTurn(async () => {
      const run = await commandHere(JSON.parse(body) as ShimCall).catch(
        (err: Error): CliRun => ({ code: 1, stdout: '', stderr: `readme-examples: ${err.stack ?? err.message}\n` }),
      );
      res.end(JSON.stringify(run));
    });
  });
});
await new Promise<void>((resolve) => cliRunner.listen(0, '127.0.0.1', resolve));
writeShims(SHIMS, BIN, `http://127.0.0.1:${(cliRunner.address() as AddressInfo).port}/`);

// The files run side by side (each with its own scratch folder, mock and CA folder), their blocks in order.
for (const { file } of files) {
  const runnable = blocks.filter(
    (b) => b.file === file && !['vitest', 'skip', 'impossible'].includes(planBlock(b).run),
  );
  if (runnable.length === 0) continue;

  describe.concurrent(`the examples of ${file}`, () => {
    let scratch: string;
    let mock: RunningMock;
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      scratch = mkdtempSync(join(tmpdir(), 'csp-mock-readme-'));
      mkdirSync(join(scratch, 'node_modules'));
      symlinkSync(ROOT, join(scratch, 'node_modules', 'csp-mock'), 'dir');
      mock = await startMock({ baseDir: scratch });
      env = {
        ...process.env,
        PATH: `${SHIMS}:${process.env['PATH'] ?? ''}`,
        CSP_MOCK_URL: mock.url,
        CSP_MOCK_CA_DIR: mkdtempSync(join(CA_DIR, 'file-')),
        NO_COLOR: '1',
      };
    });
    beforeEach(async () => {
      await mock.useScenario('default');
      await mock.reset();
    });
    afterAll(async () => {
      await mock?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    for (const block of runnable) {
      const plan = planBlock(block);
      it.sequential(
        `${where(block)} (${plan.run === 'file' ? `file ${plan.path}` : block.lang}) runs as written`,
        async () => {
          const code = withPort(block.code, mock.port);
          if (plan.run === 'file') {
            mkdirSync(dirname(join(scratch, plan.path)), { recursive: true });
            writeFileSync(join(scratch, plan.path), block.code);
            return;
          }
          if (plan.run === 'shell') {
            const checked = withClaimChecks(code);
            const input = `${CLAIMS_PRELUDE}${checked.code}`;
            const result = await run('bash', ['-euo', 'pipefail', '-s'], { cwd: scratch, env, input });
            expect(result.code, `${where(block)} exited ${result.code}:\n${result.output}`).toBe(0);
            const held = result.output.split('\n').filter((l) => l === CLAIM_HELD).length;
            expect(held, `${where(block)}: every "# =>" claim is checked:\n${result.output}`).toBe(checked.claims);
            return;
          }
          if (plan.run === 'node') {
            const path = join(scratch, `example-L${block.line}${plan.commonjs ? '.cjs' : '.mjs'}`);
            writeFileSync(path, code);
            const result = await run(process.execPath, [path], { cwd: scratch, env });
            expect(result.code, `${where(block)} exited ${result.code}:\n${result.output}`).toBe(0);
            return;
          }
          // A TypeScript script: imported here, with the scratch folder as its current folder.
          const path = fileName(block, '.ts');
          writeFileSync(path, `// ${where(block)}\n${code}\nexport {};\n`);
          await inTurn(async () => {
            const before = process.cwd();
            process.chdir(scratch);
            try {
              await import(/* @vite-ignore */ path);
            } finally {
              process.chdir(before);
            }
          });
        },
        BLOCK_TIMEOUT_MS,
      );
    }
  });
}
