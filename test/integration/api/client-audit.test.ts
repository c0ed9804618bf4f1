// The audit on the wire: small scripted clients, each misbehaving on purpose in one way, and one that
// behaves (backoff, Retry-After, conditional GETs, resumed uploads, listings with the children's details).
// The audit reads the mock's clock, here frozen: a misbehaving client sends at once, a good one waits by
// advancing the clock past the threshold, as a client on fake timers would (no real sleep, so no margin for a
// loaded machine is needed); the exact edges are unit-tested in test/unit/audit/audit-rules.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMock,
  startMock,
  type AuditFinding,
  type AuditOptions,
  type RunningMock,
  type ScenarioDefinition,
} from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';

const OPTIONS: AuditOptions = { minBackoffMs: 1000, minPollIntervalMs: 500 };
const BLOCK = 100;

const scenario: ScenarioDefinition = {
  name: 'audited-client',
  seed: {
    tree: [
      { container: 'Album', children: [0, 1, 2, 3, 4, 5].map((i) => ({ file: `photo-${i}.txt`, text: `photo ${i}` })) },
      { file: 'big.bin', text: '' },
    ],
  },
  faults: [
    { name: 'tags-500', match: { method: 'GET', path: '/v2/tags' }, times: 1, respond: { status: 500 } },
    {
      name: 'account-503',
      match: { method: 'GET', path: '/v2/account' },
      times: 1,
      respond: { status: 503, headers: { 'Retry-After': '2' } },
    },
    {
      name: 'third-block-500',
      match: { method: 'PUT', path: '/v2/files/*/content' },
      after: 2,
      times: 1,
      respond: { status: 500 },
    },
  ],
};

/** A conditional GET, as fetch sends it (fetch adds its own Cache-Control: no-cache; the mock answers 304 all the same). */
const revalidate = (etag: string): Record<string, string> => ({ 'If-None-Match': etag });

/** A client of one mock: fetch with the demo login, and the ids it learns from listings. */
class Client {
  constructor(readonly mock: RunningMock) {}

  send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    return fetch(`${this.mock.url}${path}`, {
      ...init,
      headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2', ...init.headers },
    });
  }

  async status(path: string, init?: RequestInit & { headers?: Record<string, string> }): Promise<number> {
    const res = await this.send(path, init);
    await res.arrayBuffer();
    return res.status;
  }

  /** The file ids a listing's links name. */
  async listing(path: string, headers: Record<string, string> = {}): Promise<string[]> {
    const xml = await (await this.send(path, { headers })).text();
    return [...new Set([...xml.matchAll(/xlink:href="[^"]*\/files\/([^"/]+)"/g)].map((m) => m[1]!))];
  }

  /** Waits `ms` on the mock's clock (frozen, so only this moves it). */
  wait(ms: number): Promise<unknown> {
    return this.mock.clock.advance(`${ms}ms`);
  }

  /** An id by path, read from the store (not a request, so the journal holds only the client's). */
  idOf(...names: string[]): string {
    return this.mock.store.resolvePath('demo', names)!.id;
  }

  block(fileId: string, from: number): Promise<number> {
    return this.status(`/v2/files/${fileId}/content`, {
      method: 'PUT',
      headers: { 'Content-Range': `bytes ${from}-${from + BLOCK - 1}/*`, 'Content-Type': 'application/octet-stream' },
      body: 'x'.repeat(BLOCK),
    });
  }
}

/** Each misbehaviour, one client, and the seqs of the requests that show it. */
type Planted = Record<string, number[]>;

async function lastSeq(mock: RunningMock): Promise<number> {
  return (await mock.requests({ limit: 1 }))[0]?.seq ?? 0;
}

/** Sends, and returns the seq the journal gave the request. */
async function seqOf(client: Client, send: () => Promise<unknown>): Promise<number> {
  await send();
  return lastSeq(client.mock);
}

async function misbehave(client: Client): Promise<Planted> {
  const planted: Planted = {};
  const twice = async (path: string): Promise<number[]> => [
    await seqOf(client, () => client.status(path)),
    await seqOf(client, () => client.status(path)),
  ];
  // retry-without-backoff: a 500, and the same GET again at once.
  planted['retry-without-backoff'] = await twice('/v2/tags');
  // retry-after-ignored: a 503 with Retry-After: 2, and the same GET again at once.
  planted['retry-after-ignored'] = await twice('/v2/account');
  // etag-not-revalidated: the same entity three times in full.
  const big = client.idOf('big.bin');
  const reads: number[] = [];
  for (let i = 0; i < 3; i++) reads.push(await seqOf(client, () => client.status(`/v2/files/${big}`)));
  planted['etag-not-revalidated'] = reads;
  // full-reupload: two blocks stored, the third fails, and the client starts over at byte 0 (after a backoff,
  // so that this is its only fault).
  const blocks: number[] = [];
  for (const from of [0, BLOCK, 2 * BLOCK]) blocks.push(await seqOf(client, () => client.block(big, from)));
  await client.wait(OPTIONS.minBackoffMs! + 100);
  blocks.push(await seqOf(client, () => client.block(big, 0)));
  planted['full-reupload'] = blocks;
  // n-plus-one-listing: the album's bare listing, then one GET per photo.
  const album = client.idOf('Album');
  const photos = await client.listing(`/v2/containers/${album}/contents`);
  const children = [await lastSeq(client.mock)];
  for (const id of photos) children.push(await seqOf(client, () => client.status(`/v2/files/${id}`)));
  planted['n-plus-one-listing'] = children;
  // polling-too-fast: the root listing six times in a row, conditional (so only the rate is wrong).
  const root = `/v2/containers/${client.mock.store.root('demo').id}/contents`;
  const first = await client.send(root);
  await first.text();
  const etag = first.headers.get('etag')!;
  const polls = [await lastSeq(client.mock)];
  for (let i = 0; i < 5; i++) polls.push(await seqOf(client, () => client.status(root, { headers: revalidate(etag) })));
  planted['polling-too-fast'] = polls;
  return planted;
}

async function behave(client: Client): Promise<void> {
  const big = client.idOf('big.bin');
  const album = client.idOf('Album');
  const root = `/v2/containers/${client.mock.store.root('demo').id}/contents`;
  await Promise.all([
    // A failure without Retry-After: back off past the floor, then retry.
    (async () => {
      if ((await client.status('/v2/tags')) === 500) await client.wait(OPTIONS.minBackoffMs! + 200);
      expect(await client.status('/v2/tags')).toBe(200);
    })(),
    // A 503 with Retry-After: wait what it asks.
    (async () => {
      const res = await client.send('/v2/account');
      await res.arrayBuffer();
      if (res.status === 503) await client.wait(Number(res.headers.get('retry-after')) * 1000 + 100);
      expect(await client.status('/v2/account')).toBe(200);
    })(),
    // Blocks: after the failed third block, back off and resume at its offset.
    (async () => {
      for (const from of [0, BLOCK, 2 * BLOCK]) {
        let status = await client.block(big, from);
        while (status >= 500) {
          await client.wait(OPTIONS.minBackoffMs! + 200);
          status = await client.block(big, from);
        }
        expect(status).toBe(204);
      }
      // Then the entity, revalidated with its ETag.
      const res = await client.send(`/v2/files/${big}`);
      await res.text();
      for (let i = 0; i < 2; i++)
        expect(await client.status(`/v2/files/${big}`, { headers: revalidate(res.headers.get('etag')!) })).toBe(304);
    })(),
    // The album with its children's details in one listing; then the root polled at the stated rate.
    (async () => {
      await client.listing(`/v2/containers/${album}/contents`, { 'X-Cloud-Depth': '1' });
      let etag = '';
      for (let i = 0; i < 5; i++) {
        if (i > 0) await client.wait(OPTIONS.minPollIntervalMs! + 100);
        const res = await client.send(root, { headers: etag ? revalidate(etag) : {} });
        await res.arrayBuffer();
        etag = res.headers.get('etag') ?? etag;
      }
    })(),
  ]);
}

const mocks: RunningMock[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.close();
});

async function scripted(): Promise<Client> {
  const mock = await startMock({ scenario, clock: { frozen: '2026-01-01T10:00:00Z' } });
  mocks.push(mock);
  return new Client(mock);
}

describe('the audit of a scripted client', { timeout: 60_000 }, () => {
  it('names every planted misbehaviour with the requests that show it, and nothing else', async () => {
    const client = await scripted();
    const planted = await misbehave(client);
    const report = await client.mock.audit(OPTIONS);
    const found = (rule: string): AuditFinding[] => report.findings.filter((f) => f.rule === rule);
    for (const [rule, seqs] of Object.entries(planted)) {
      expect(
        found(rule).map((f) => f.requests.map((r) => r.seq)),
        rule,
      ).toEqual([seqs]);
    }
    expect(new Set(report.findings.map((f) => f.rule))).toEqual(new Set(Object.keys(planted)));
    // The same report through connectMock, which reads the journal over the admin API.
    expect(await connectMock(client.mock.url).audit(OPTIONS)).toEqual(report);
  });

  it('reports nothing for a client that backs off, honours Retry-After, revalidates, resumes and lists once', async () => {
    const client = await scripted();
    await behave(client);
    const report = await client.mock.audit(OPTIONS);
    expect(report.findings).toEqual([]);
    expect(report.audited).toBeGreaterThan(15);
  });
});
