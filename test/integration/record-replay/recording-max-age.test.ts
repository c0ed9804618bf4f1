import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { CLI, ServeProcess, killServersAfterEach } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { EXAMPLE_CREDENTIALS, runExampleSession } from '../../support/example-client/client-session.js';
import { EXAMPLE_RECORDING, basic, readJson, useTempDir } from './support.js';

const DAY = 86_400_000;

/** The built CLI run to its end. */
const run = (args: string[], cwd: string) => runCommand(process.execPath, [CLI, ...args], { cwd });

describe('replay --max-age and verify --max-age', () => {
  killServersAfterEach();
  const tmp = useTempDir('max-age');

  /** The example recording (and its sidecars) copied, its header given this creation time (or none). */
  async function recordingMade(created: Date | undefined): Promise<string> {
    const file = join(tmp.path, 'session.jsonl');
    await cp(EXAMPLE_RECORDING.replace(/\.jsonl$/, '.bodies'), join(tmp.path, 'session.bodies'), { recursive: true });
    const [header, ...rest] = (await readFile(EXAMPLE_RECORDING, 'utf8')).split('\n');
    const { created: _shipped, ...fields } = JSON.parse(header!) as Record<string, unknown>;
    const stamped = created ? { ...fields, created: created.toISOString() } : fields;
    await writeFile(file, [JSON.stringify(stamped), ...rest].join('\n'));
    return file;
  }

  it('a recording younger than --max-age replays and verifies', async () => {
    const file = await recordingMade(new Date(Date.now() - DAY));
    const replay = await new ServeProcess(['replay', '--port', '0', '--recording', file, '--max-age', '30d'], {
      cwd: tmp.path,
    }).ready();
    expect((await fetch(`${replay.url}/v2`, { headers: { Authorization: basic('demo', 'x') } })).status).toBe(200);
    await replay.stop();
    const verify = await run(['verify', '--recording', file, '--max-age', '30d'], tmp.path);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/0 differ/);
  });

  it('a recording older than --max-age: replay and verify each print one line, exit 1 and change nothing', async () => {
    const file = await recordingMade(new Date(Date.now() - 40 * DAY));
    const before = await readFile(file);
    for (const command of ['replay', 'verify']) {
      const args = [command, '--recording', file, '--max-age', '30d', ...(command === 'replay' ? ['--port', '0'] : [])];
      const result = await run(args, tmp.path);
      expect(result.code, command).toBe(1);
      expect(result.stdout, command).toBe('');
      const lines = result.stderr.split('\n').filter(Boolean);
      expect(lines, command).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^csp-mock: .*session\.jsonl: the recording was made \S+, 5 weeks ago, older than --max-age 30d; record it again$/,
      );
    }
    expect(await readFile(file)).toEqual(before);
  });

  it('a recording of unknown age (made before recordings kept their time) is refused under --max-age and replays without it', async () => {
    const file = await recordingMade(undefined);
    const refused = await run(['verify', '--recording', file, '--max-age', '365d'], tmp.path);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/has no creation time .*its age is unknown and --max-age 365d refuses it/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const replay = await new ServeProcess(['replay', '--port', '0', '--recording', file], { cwd: tmp.path }).ready();
    expect((await fetch(`${replay.url}/v2`, { headers: { Authorization: basic('demo', 'x') } })).status).toBe(200);
  });

  it('a --max-age that is not a duration gets one line naming the form it takes', async () => {
    const file = await recordingMade(new Date());
    const result = await run(['replay', '--port', '0', '--recording', file, '--max-age', '30 days'], tmp.path);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'csp-mock: --max-age must be a positive duration with a unit (ms, s, m, h, d or w), e.g. 30d, 1.5d or 12h; got "30 days"',
    );
  });
});

describe('every recording carries its creation time', () => {
  const tmp = useTempDir('created');
  let upstream: RunningMock;

  beforeEach(async () => {
    upstream = await startMock({ seed: 'empty' });
  });
  afterEach(() => upstream.close());

  it('record writes it in the header line; --append keeps it', async () => {
    const out = join(tmp.path, 'r.jsonl');
    const before = Date.now();
    let recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
    await fetch(`${recorder.url}/v2`, { headers: { Authorization: basic('demo', 'demo') } });
    await recorder.close();
    const created = (await readJson(out)).created!;
    expect(Date.parse(created)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(created)).toBeLessThanOrEqual(Date.now());
    expect(JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!)).toMatchObject({ created });
    recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out, append: true } });
    await fetch(`${recorder.url}/v2`, { headers: { Authorization: basic('demo', 'demo') } });
    await recorder.close();
    const doc = await readJson(out);
    expect(doc.created).toBe(created);
    expect(doc.exchanges).toHaveLength(2);
  });

  it('the shipped example recording has a created time in its header, which parses as a date', async () => {
    const header = JSON.parse((await readFile(EXAMPLE_RECORDING, 'utf8')).split('\n')[0]!) as { created?: unknown };
    expect(typeof header.created).toBe('string');
    expect(Number.isNaN(Date.parse(header.created as string))).toBe(false);
  });

  it('the example session recorded now, as record:example makes it, passes verify --max-age 1h', async () => {
    const out = join(tmp.path, 'example-session.jsonl');
    const source = await startMock({
      seed: 'empty',
      users: { [EXAMPLE_CREDENTIALS.user]: EXAMPLE_CREDENTIALS.password },
    });
    const recorder = await startMock({ mode: { kind: 'record', upstream: source.url, out } });
    try {
      await runExampleSession(recorder.url, EXAMPLE_CREDENTIALS);
    } finally {
      await recorder.close();
      await source.close();
    }
    const verify = await run(['verify', '--recording', out, '--max-age', '1h'], tmp.path);
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/21 match, 0 differ/);
  });
});
