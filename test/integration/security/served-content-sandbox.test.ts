// Everything the mock serves shares an origin with /__admin: a browser must open it sandboxed and unsniffed.
import { afterEach, describe, expect, it } from 'vitest';
import { readRecording, startMock, type RunningMock } from '../../../src/index.js';
import { basic } from '../../helpers/raw-http.js';
import { EXAMPLE_RECORDING } from '../record-replay/support.js';

/** A policy that would let a stored page run script on the mock's origin, and a header that would let it be sniffed. */
const LOOSE = { 'Content-Security-Policy': "script-src 'unsafe-inline'", 'X-Content-Type-Options': 'none' };

/** The answer's policies (one a header value, comma-joined) hold a bare sandbox, and it is never sniffed. */
function expectSandboxed(seen: { csp: string | null; nosniff: string | null }): void {
  const policies = (seen.csp ?? '').split(',').map((p) => p.trim());
  expect(policies).toContain('sandbox');
  expect(seen.nosniff).toBe('nosniff');
}

const HEADERS = { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2' };

async function headersOf(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; csp: string | null; nosniff: string | null }> {
  const res = await fetch(url, { ...init, headers: { ...HEADERS, ...(init.headers as Record<string, string>) } });
  await res.arrayBuffer();
  return {
    status: res.status,
    csp: res.headers.get('content-security-policy'),
    nosniff: res.headers.get('x-content-type-options'),
  };
}

describe('served content is sandboxed', () => {
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('stored files by /v2 and /dav, entities, listings, errors and scenario bodies carry Content-Security-Policy: sandbox and nosniff', async () => {
    mock = await startMock({ seed: 'empty', log: () => undefined });
    const root = mock.store.root('demo');
    const page = await mock.store.createFile(
      'demo',
      root.id,
      { name: 'page.svg', mimeType: 'image/svg+xml' },
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    const surfaces: [string, string, RequestInit?][] = [
      ['file content by /v2', `/v2/files/${page.id}/content`],
      ['a Range of it', `/v2/files/${page.id}/content`, { headers: { Range: 'bytes=0-3' } }],
      ['file content by /dav', '/dav/page.svg'],
      ['the /dav folder listing', '/dav/'],
      ['a file entity', `/v2/files/${page.id}`],
      ['a listing', `/v2/containers/${root.id}/contents`],
      ['a 404', '/v2/files/nothing-here'],
      ['a 401', '/v2/account', { headers: { Authorization: basic('demo', 'wrong') } }],
    ];
    for (const [what, path, init] of surfaces) {
      const seen = await headersOf(`${mock.url}${path}`, init);
      expect({ what, csp: seen.csp?.split(';')[0], nosniff: seen.nosniff }).toEqual({
        what,
        csp: 'sandbox',
        nosniff: 'nosniff',
      });
    }
    await mock.useScenario({
      name: 'html-answer',
      faults: [
        {
          name: 'html',
          match: { method: 'GET', path: '/v2/account' },
          respond: { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<script>alert(1)</script>' },
        },
      ],
    });
    expect(await headersOf(`${mock.url}/v2/account`)).toEqual({ status: 200, csp: 'sandbox', nosniff: 'nosniff' });
  });

  it('a replayed answer carries it too', async () => {
    mock = await startMock({ scenario: 'replay-example', log: () => undefined });
    expect(await headersOf(`${mock.url}/v2`)).toEqual({ status: 200, csp: 'sandbox', nosniff: 'nosniff' });
  });

  it("the inspector's own page keeps its own policy (scripts from itself), not the sandbox", async () => {
    mock = await startMock({ seed: 'empty', log: () => undefined });
    const res = await fetch(`${mock.url}/__admin/`);
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/sandbox/);
  });

  it('a respond rule that sets its own Content-Security-Policy and X-Content-Type-Options cannot lift the sandbox', async () => {
    mock = await startMock({
      seed: 'empty',
      log: () => undefined,
      scenario: {
        faults: [
          {
            match: { method: 'GET', path: '/v2/account' },
            respond: { status: 200, headers: { 'Content-Type': 'text/html', ...LOOSE }, body: '<script>1</script>' },
          },
          {
            match: { method: 'GET', path: '/v2/tags' },
            afterCommit: {
              status: 503,
              headers: { 'Content-Type': 'text/html', ...LOOSE },
              body: '<script>1</script>',
            },
          },
        ],
      },
    });
    for (const path of ['/v2/account', '/v2/tags']) {
      const seen = await headersOf(`${mock.url}${path}`);
      expect(seen.csp).toContain("script-src 'unsafe-inline'");
      expectSandboxed(seen);
    }
  });

  it('a replayed answer that recorded its own Content-Security-Policy keeps it beside the sandbox, never instead', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    for (const exchange of recording.exchanges)
      exchange.response.headers = {
        ...exchange.response.headers,
        'content-security-policy': "script-src 'unsafe-inline'",
        'x-content-type-options': 'none',
      };
    mock = await startMock({ mode: { kind: 'replay', recording }, log: () => undefined });
    const seen = await headersOf(`${mock.url}/v2`);
    expect(seen.status).toBe(200);
    expectSandboxed(seen);
  });
});
