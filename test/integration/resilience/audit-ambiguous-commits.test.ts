// The audit's duplicate-after-ambiguous-commit rule on the wire: the service commits a create and the
// connection is reset before the answer (an afterCommit fault); a client that blindly sends it again is
// named, one that lists first to see whether its create landed is not. The second device's own changes
// are never taken for the client's behaviour.
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';

const headers = { Authorization: BASIC_DEMO, 'X-Client-Specification': '2' };
const CREATE = { ...headers, 'Content-Type': 'application/vnd.csp.container-info+xml' };
const BODY = '<container><name>Invoices</name></container>';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function started(): Promise<{ mock: RunningMock; contents: string }> {
  mock = await startMock({
    scenario: {
      faults: [
        {
          name: 'lost-create-answer',
          match: { method: 'POST', path: '/v2/containers/*/contents' },
          afterCommit: 'reset',
          times: 1,
        },
      ],
    },
  });
  const entry = await (await fetch(`${mock.url}/v2`, { headers })).text();
  const root = /<rootContainer xlink:href="([^"]+)"/.exec(entry)?.[1];
  expect(root).toBeDefined();
  return { mock, contents: `${root!}/contents` };
}

/** The first create: committed by the service, and the client sees the connection reset. */
async function createLosingTheAnswer(contents: string): Promise<void> {
  await expect(fetch(contents, { method: 'POST', headers: CREATE, body: BODY })).rejects.toThrow();
}

describe('the audit of a client after an ambiguous commit', () => {
  it('names a blind repeat of a committed create whose answer was lost, with both requests', async () => {
    const { mock, contents } = await started();
    await createLosingTheAnswer(contents);
    await fetch(contents, { method: 'POST', headers: CREATE, body: BODY });
    const entries = await mock.requests({ method: 'POST' });
    expect(entries[0]).toMatchObject({ committed: true, fault: 'lost-create-answer', status: null });
    const report = await mock.audit({ rules: ['duplicate-after-ambiguous-commit'] });
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]!.requests.map((r) => r.seq)).toEqual(entries.map((e) => e.seq));
  });

  it('says nothing of a client that lists to see whether its create landed, nor of the second device', async () => {
    const { mock, contents } = await started();
    await createLosingTheAnswer(contents);
    const listing = await (await fetch(contents, { headers: { ...headers, 'X-Cloud-Depth': '1' } })).text();
    expect(listing).toContain('Invoices'); // it landed: nothing to send again
    await mock.change({ createFolder: '/Inbox' });
    await mock.change({ delete: '/Inbox' });
    const report = await mock.audit();
    expect(report.findings).toEqual([]);
    expect(report.audited).toBe((await mock.requests()).filter((e) => e.device !== 'second').length);
  });
});
