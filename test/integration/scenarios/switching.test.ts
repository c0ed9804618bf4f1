import { describe, expect, it } from 'vitest';
import type { ScenarioDefinition } from '../../../src/index.js';
import { BASIC, until, useRunningMock } from './wire-client.js';

const HEADERS = { Authorization: `${BASIC}`, 'X-Client-Specification': '2' };
const tagsAnswer = (status: number, body: string, delayMs?: number): ScenarioDefinition => ({
  name: body,
  faults: [{ match: { method: 'GET', path: '/v2/tags' }, respond: { status, body, delayMs } }],
});

async function getText(url: string): Promise<string> {
  const res = await fetch(url, { headers: HEADERS });
  return `${res.status} ${await res.text()}`;
}

describe('switching scenarios from a test suite (startMock, useScenario, reset, requests)', () => {
  const running = useRunningMock(() => ({}));

  it('startMock({ scenario }) starts under it; useScenario switches by name, and back', async () => {
    const mock = await running.start({ scenario: 'tag-objects-500' });
    expect(mock.scenario.name).toBe('tag-objects-500');
    expect((await fetch(`${mock.url}/v2/tags/important/objects`, { headers: HEADERS })).status).toBe(500);
    await mock.useScenario('default');
    expect(mock.scenario.name).toBe('default');
    expect((await fetch(`${mock.url}/v2/tags/important/objects`, { headers: HEADERS })).status).toBe(200);
  });

  it('a scenario without a seed keeps the state; one with a seed replaces it', async () => {
    const mock = await running.start({ scenario: 'default' });
    const before = await getText(`${mock.url}/dav/hello.json`);
    expect(before).toBe('200 {"hello":"world"}\n');
    await mock.useScenario('tag-objects-500');
    expect(await getText(`${mock.url}/dav/hello.json`)).toBe(before);
    await mock.useScenario({ seed: { tree: [{ file: 'only.txt', text: 'seeded' }] } });
    expect(await getText(`${mock.url}/dav/hello.json`)).toMatch(/^404/);
    expect(await getText(`${mock.url}/dav/only.txt`)).toBe('200 seeded');
  });

  it('a refused scenario leaves the active one in place', async () => {
    const mock = await running.start({ scenario: 'tag-objects-500' });
    await expect(
      mock.useScenario({ faults: [{ match: { method: 'GET', path: 'no-slash' }, delayMs: 1 }] }),
    ).rejects.toThrow('inline scenario: faults[0].match.path: is not allowed: A path glob');
    expect(mock.scenario.name).toBe('tag-objects-500');
  });

  it('a switch is atomic: a request in flight finishes under the old scenario, later ones see only the new one', async () => {
    const mock = await running.start({ scenario: tagsAnswer(503, 'old', 400) });
    const inFlight = getText(`${mock.url}/v2/tags`);
    await until(mock.requests, (entries) => entries.length === 1);
    // What the journal says about the old request at the moment the switch completes.
    const switched = mock
      .useScenario(tagsAnswer(502, 'new'))
      .then(async () => ({ ...(await await mock.requests())[0] }));
    await new Promise((r) => setTimeout(r, 50));
    const during = getText(`${mock.url}/v2/tags`);
    expect(await inFlight).toBe('503 old');
    expect(await switched).toMatchObject({ scenario: 'old', status: 503, outcome: 'answered' });
    expect(await during).toBe('502 new');
    expect((await mock.requests()).map((e) => [e.scenario, e.status])).toEqual([
      ['old', 503],
      ['new', 502],
    ]);
  });

  it('reset puts the state back to the seed and clears the journal', async () => {
    const mock = await running.start({ scenario: 'empty' });
    const state = (await (await fetch(`${mock.url}/__admin/state`)).json()) as { users: { demo: { rootId: string } } };
    const created = await fetch(`${mock.url}/v2/containers/${state.users.demo.rootId}/contents`, {
      method: 'POST',
      headers: { ...HEADERS, 'Content-Type': 'application/vnd.csp.container-info+xml' },
      body: '<container><name>made</name></container>',
    });
    expect(created.status).toBe(201);
    expect(await getText(`${mock.url}/dav/made/`)).toMatch(/^200/);
    expect((await mock.requests()).length).toBe(2);
    await mock.reset();
    expect(await mock.requests()).toEqual([]);
    expect(await getText(`${mock.url}/dav/made/`)).toMatch(/^404/);
  });

  it('requests() journals method, path, status, outcome, fault and user, with credentials removed', async () => {
    const mock = await running.start({
      scenario: { faults: [{ name: 'drop', match: { method: 'GET', path: '/v2/recyclebin' }, connection: 'reset' }] },
    });
    await fetch(`${mock.url}/v2/account?n=1&password=hunter2`, { headers: { ...HEADERS, 'X-Cloud-Key': 'api-key-1' } });
    await fetch(`${mock.url}/v2/recyclebin`, { headers: HEADERS }).catch(() => undefined);
    // The server journals the reset a moment after the client sees it.
    const [account, recycle] = await until(mock.requests, (entries) => entries.at(-1)?.outcome !== 'pending');
    expect(account).toMatchObject({
      method: 'GET',
      path: '/v2/account',
      status: 200,
      outcome: 'answered',
      user: 'demo',
      fault: null,
    });
    expect(account!.query).toEqual({ n: '1', password: '[removed]' });
    expect(account!.headers['authorization']).toBe('[removed]');
    expect(account!.headers['x-cloud-key']).toBe('[removed]');
    expect(recycle).toMatchObject({ path: '/v2/recyclebin', status: null, outcome: 'reset', fault: 'drop' });
    const text = JSON.stringify(await mock.requests());
    for (const secret of [BASIC.slice('Basic '.length), 'hunter2', 'api-key-1']) expect(text).not.toContain(secret);
  });
});
