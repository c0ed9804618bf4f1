import { afterEach, describe, expect, it } from 'vitest';
import { startMock, ScenarioError, type RunningMock, type ScenarioDefinition } from '../../../src/index.js';
import { ScriptedClient } from './scripted-client.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const CREATE = { method: 'POST', path: '/v2/containers/*/contents' };

async function start(scenario: ScenarioDefinition): Promise<{ client: ScriptedClient; root: string }> {
  mock = await startMock({ seed: 'empty', scenario });
  const client = new ScriptedClient(mock.url);
  return { client, root: await client.rootPath() };
}

function createBody(name: string) {
  return {
    headers: { 'Content-Type': 'application/vnd.csp.file-info+xml' },
    body: `<file><name>${name}</name></file>`,
  };
}

describe('ambiguous commits: the change lands, the client never hears so', () => {
  it('afterCommit "reset": the file is created, the client sees a TCP reset, the journal says committed', async () => {
    const { client, root } = await start({ faults: [{ name: 'lost-answer', match: CREATE, afterCommit: 'reset' }] });
    const seen = await client.send('POST', `${root}/contents`, createBody('a.txt'));
    expect(seen.kind).toBe('reset');
    expect(await client.names(root)).toEqual(['a.txt']);
    const [entry] = await mock!.requests({ method: 'POST' });
    expect(entry).toMatchObject({ committed: true, fault: 'lost-answer', outcome: 'reset', status: null });
  });

  it('afterCommit "close": the file is created, the connection closes without a byte', async () => {
    const { client, root } = await start({ faults: [{ match: CREATE, afterCommit: 'close' }] });
    const seen = await client.send('POST', `${root}/contents`, createBody('b.txt'));
    expect(seen).toEqual({ kind: 'closed', code: 'ECONNRESET' });
    expect(await client.names(root)).toEqual(['b.txt']);
    const [entry] = await mock!.requests({ method: 'POST' });
    expect(entry).toMatchObject({ committed: true, fault: 'faults[0]', outcome: 'closed', status: null });
  });

  it('afterCommit with a status: the file is created, the client reads 503 and its body', async () => {
    const { client, root } = await start({
      faults: [{ match: CREATE, afterCommit: { status: 503, headers: { 'Retry-After': '1' }, body: 'try later' } }],
    });
    const seen = await client.send('POST', `${root}/contents`, createBody('c.txt'));
    expect(seen.kind === 'answer' && [seen.status, seen.body.toString(), seen.headers['retry-after']]).toEqual([
      503,
      'try later',
      '1',
    ]);
    // None of the service's own headers of the success leak into the replacing answer.
    expect(seen.kind === 'answer' && seen.headers['location']).toBeUndefined();
    expect(await client.names(root)).toEqual(['c.txt']);
    const [entry] = await mock!.requests({ method: 'POST' });
    expect(entry).toMatchObject({ committed: true, fault: 'faults[0]', outcome: 'answered', status: 503 });
  });

  it('a block upload: chunk 2 is committed and then reset; the file holds chunks 1 and 2', async () => {
    const { client, root } = await start({
      faults: [
        {
          name: 'chunk-2-lost',
          match: { method: 'PUT', path: '/v2/files/*/content', headers: { 'content-range': true } },
          after: 1,
          times: 1,
          afterCommit: 'reset',
        },
      ],
    });
    const file = await client.createFile(root, 'big.bin');
    const blocks = [Buffer.alloc(100, 'a'), Buffer.alloc(100, 'b'), Buffer.alloc(100, 'c')];
    expect((await client.putBlock(file, 0, blocks[0]!)).kind).toBe('answer');
    expect((await client.putBlock(file, 100, blocks[1]!)).kind).toBe('reset');
    const stored = await client.expect(200, 'GET', `${file}/content`);
    expect(stored.body.equals(Buffer.concat(blocks.slice(0, 2)))).toBe(true);
    // The client that resumes from the committed length (not from its last acknowledged block) finishes.
    expect((await client.putBlock(file, 200, blocks[2]!)).kind).toBe('answer');
    const done = await client.expect(200, 'GET', `${file}/content`);
    expect(done.body.equals(Buffer.concat(blocks))).toBe(true);
    const puts = await mock!.requests({ method: 'PUT' });
    expect(puts.map((e) => [e.committed, e.fault, e.outcome])).toEqual([
      [true, null, 'answered'],
      [true, 'chunk-2-lost', 'reset'],
      [true, null, 'answered'],
    ]);
  });

  it('a request the service refuses committed nothing: its own answer goes out and no fault is noted', async () => {
    const { client } = await start({ faults: [{ match: CREATE, afterCommit: 'reset' }] });
    const seen = await client.send('POST', '/v2/containers/no-such-id/contents', createBody('d.txt'));
    expect(seen.kind === 'answer' && seen.status).toBe(404);
    const [entry] = await mock!.requests({ method: 'POST' });
    expect(entry).toMatchObject({ committed: false, fault: null, status: 404 });
  });

  it('the journal says committed for every write, false when a fault answered first, and nothing for reads', async () => {
    const { client, root } = await start({
      faults: [{ match: { method: 'DELETE', path: '/**' }, respond: { status: 500 } }],
    });
    const file = await client.createFile(root, 'e.txt');
    await client.expect(500, 'DELETE', file);
    await client.expect(200, 'GET', file);
    const entries = await mock!.requests({ path: '/v2/**' });
    const byMethod = Object.fromEntries(entries.map((e) => [e.method, e.committed]));
    expect(byMethod).toEqual({ GET: undefined, POST: true, DELETE: false });
    expect(entries.filter((e) => e.method === 'GET').every((e) => !('committed' in e))).toBe(true);
  });

  it('with nothing armed, the journal reads committed from the status the service answered: a refused create is not, an accepted one is', async () => {
    const { client, root } = await start({});
    const refused = await client.send('POST', '/v2/containers/no-such-id/contents', createBody('r.txt'));
    expect(refused.kind === 'answer' && refused.status).toBe(404);
    await client.createFile(root, 'accepted.txt');
    const entries = await mock!.requests({ method: 'POST' });
    expect(entries.map((e) => [e.status, e.committed])).toEqual([
      [404, false],
      [201, true],
    ]);
  });

  it('a rule with afterCommit and another action is refused, naming the field', async () => {
    mock = await startMock({ seed: 'empty' });
    await expect(
      mock.useScenario({ faults: [{ match: CREATE, afterCommit: 'reset', respond: { status: 500 } }] }),
    ).rejects.toThrow(ScenarioError);
    await expect(
      mock.useScenario({ faults: [{ match: CREATE, afterCommit: 'reset', connection: 'close' }] }),
    ).rejects.toThrow(/faults\[0\]\.connection.*afterCommit/);
  });
});
