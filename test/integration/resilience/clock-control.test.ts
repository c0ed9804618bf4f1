// Moving a running mock's clock: from the test process (startMock's handle), over the admin API
// (POST /__admin/clock), through connectMock, and with `csp-mock clock` and serve's clock options.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectMock, startMock, type RunningMock } from '../../../src/index.js';
import { cliHere, serveHere, stopListeningAfterEach } from '../cli/in-process.js';

const FROZEN = '2025-01-01T00:00:00Z';
const FROZEN_MS = Date.parse(FROZEN);
const DAY_MS = 86_400_000;

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-clock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  return cliHere(args, { cwd: scratch, env });
}

async function admin(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${mock!.url}/__admin${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

describe('controlling the mock clock', () => {
  it("startMock's handle: set, freeze, advance, resume, offset and reset, each answering the clock's state", async () => {
    mock = await startMock();
    expect(await mock.clock.freeze(FROZEN)).toMatchObject({ now: '2025-01-01T00:00:00.000Z', frozen: true });
    expect((await mock.clock.advance('90s')).now).toBe('2025-01-01T00:01:30.000Z');
    expect((await mock.clock.advance('-1h30m')).now).toBe('2024-12-31T22:31:30.000Z');
    expect((await mock.clock.set(new Date(FROZEN_MS + DAY_MS))).now).toBe('2025-01-02T00:00:00.000Z');
    expect((await mock.clock.now()).getTime()).toBe(FROZEN_MS + DAY_MS);

    const before = Date.now();
    const resumed = await mock.clock.resume();
    const after = Date.now();
    expect(resumed.frozen).toBe(false);
    // Running on from where it stood: the offset is the frozen time minus the real time of the resume.
    expect(resumed.offsetMs).toBeGreaterThanOrEqual(FROZEN_MS + DAY_MS - after);
    expect(resumed.offsetMs).toBeLessThanOrEqual(FROZEN_MS + DAY_MS - before);

    const skewed = await mock.clock.offset('-5m');
    expect(skewed).toMatchObject({ frozen: false, offset: '-5m' });
    expect((await mock.clock.reset()).offsetMs).toBe(0);
    await expect(mock.clock.advance('soon')).rejects.toThrow(/"soon" is not a duration/);
  });

  it('POST /__admin/clock takes one action and answers the state; GET shows it; a bad body is a 400 naming what it takes', async () => {
    mock = await startMock({ clock: { frozen: FROZEN } });
    const shown = await (await admin('/clock')).json();
    expect(shown).toMatchObject({ now: '2025-01-01T00:00:00.000Z', frozen: true });
    const advanced = await admin('/clock', { method: 'POST', body: JSON.stringify({ advance: '2d' }) });
    expect(advanced.status).toBe(200);
    expect(await advanced.json()).toMatchObject({ now: '2025-01-03T00:00:00.000Z', frozen: true });
    expect(
      await (await admin('/clock', { method: 'POST', body: '{"set": "2026-02-03T04:05:06Z"}' })).json(),
    ).toMatchObject({
      now: '2026-02-03T04:05:06.000Z',
    });
    // reset: back to the options' clock (no scenario clock), the state untouched
    expect(await (await admin('/clock', { method: 'POST', body: '{"reset": true}' })).json()).toMatchObject({
      now: '2025-01-01T00:00:00.000Z',
    });

    for (const [body, message] of [
      ['{"advance": "two days"}', /"two days" is not a duration/],
      ['{"advance": "2d", "set": "2025-01-01"}', /send one of/],
      ['{"jump": "2d"}', /send one of .*"jump"/],
      ['{"resume": 1}', /resume takes true/],
      ['{"set": "yesterday"}', /with its zone/],
      ['[]', /send one of/],
    ] as const) {
      const res = await admin('/clock', { method: 'POST', body });
      expect(res.status, body).toBe(400);
      expect(await res.text(), body).toMatch(message);
    }
    expect(
      (await admin('/clock', { method: 'POST', body: 'advance=2d', headers: { 'Content-Type': 'text/plain' } })).status,
    ).toBe(415);
    expect((await (await admin('/clock')).json()).now).toBe('2025-01-01T00:00:00.000Z');
  });

  it('connectMock: the same calls over the admin API, with the token', async () => {
    mock = await startMock({ adminToken: 'tok', clock: { frozen: FROZEN } });
    const remote = connectMock(mock.url, { adminToken: 'tok' });
    expect((await remote.clock.now()).toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect((await remote.clock.advance('2d')).now).toBe('2025-01-03T00:00:00.000Z');
    expect((await mock.clock.now()).getTime()).toBe(FROZEN_MS + 2 * DAY_MS);
    expect((await remote.clock.set(new Date(FROZEN_MS))).now).toBe('2025-01-01T00:00:00.000Z');
    expect((await remote.clock.offset('1h')).frozen).toBe(false);
    expect((await remote.clock.freeze(FROZEN)).frozen).toBe(true);
    expect((await remote.clock.state()).now).toBe('2025-01-01T00:00:00.000Z');
    await expect(remote.clock.advance('later')).rejects.toThrow(/answered 400: .*"later" is not a duration/);
    await expect(connectMock(mock.url).clock.state()).rejects.toThrow(/requires an admin token/);
  });
});

// The CLI run in this process (runCli): the same parsing and words without a Node process per step.
describe('csp-mock clock and serve --clock-*', () => {
  stopListeningAfterEach();

  it('serve --clock-frozen starts frozen (shown on the ready screen); clock show, advance, set, offset, freeze, resume and reset move it', async () => {
    const server = await serveHere(['--clock-frozen', FROZEN]);
    expect(await server.waitForLine(/clock:/)).toMatch(
      /clock: +2025-01-01T00:00:00\.000Z, frozen, .* behind real time/,
    );
    const env = { CSP_MOCK_URL: server.url };
    expect((await cli(['clock', 'show'], env)).stdout).toMatch(/^2025-01-01T00:00:00\.000Z, frozen, /);
    const advanced = await cli(['clock', 'advance', '2d', '--json'], env);
    expect(JSON.parse(advanced.stdout)).toMatchObject({ now: '2025-01-03T00:00:00.000Z', frozen: true });
    expect((await fetch(`${server.url}/v2`)).headers.get('date')).toBe('Fri, 03 Jan 2025 00:00:00 GMT');
    expect((await cli(['clock', 'set', '2025-06-01T00:00:00Z'], env)).stdout).toMatch(
      /^2025-06-01T00:00:00\.000Z, frozen/,
    );
    expect((await cli(['clock', 'offset', '--', '-5m'], env)).stdout).toMatch(/, running, 5m behind real time/);
    expect((await cli(['clock', 'freeze', FROZEN], env)).stdout).toMatch(/^2025-01-01T00:00:00\.000Z, frozen/);
    expect((await cli(['clock', 'resume'], env)).stdout).toMatch(/, running, /);
    expect((await cli(['clock', 'reset'], env)).stdout).toMatch(/^2025-01-01T00:00:00\.000Z, frozen/);

    const bad = await cli(['clock', 'advance', 'soon'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^csp-mock: advance: "soon" is not a duration: write a number with a unit/);
    const missing = await cli(['clock', 'advance'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/give a value .*clock advance -- -5m/);
  });

  it('CSP_MOCK_CLOCK_OFFSET skews a served mock; a bad value stops serve with the option named', async () => {
    const server = await serveHere([], { env: { CSP_MOCK_CLOCK_OFFSET: '-2d' } });
    const state = JSON.parse((await cli(['clock', 'show', '--json'], { CSP_MOCK_URL: server.url })).stdout);
    expect(state.frozen).toBe(false);
    expect(Math.round(state.offsetMs / 1000)).toBe(-2 * 86_400);
    const refused = await cli(['serve', '--port', '0', '--clock-offset', 'sometime']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/clock\.offset: "sometime" is not a duration/);
  });
});
