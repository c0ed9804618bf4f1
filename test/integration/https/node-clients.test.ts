import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMock, MockConnectionError, startMock, type RunningMock } from '../../../src/index.js';
import { CLI } from '../../helpers/cli.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';

/** Runs node with `args`, its environment `env`; resolves with the exit code and everything printed. */
function node(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** What a client process sees: NODE_EXTRA_CA_CERTS set, no other trust added. */
const FETCH_V2 = `
const res = await fetch(process.argv[1] + '/v2', { headers: ${JSON.stringify(SERVICE_HEADERS)} });
console.log(res.status, await res.text());
`;

describe('Node clients of an https mock', { timeout: 60_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  const start = async (): Promise<RunningMock> => {
    mock = await startMock({ https: { caDir: ca.path } });
    return mock;
  };

  it('startMock({ https }) gives an https url and the CA to trust; https.request with that CA reads /v2', async () => {
    const m = await start();
    expect(m.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(m.https?.url).toBe(m.url);
    expect(m.https?.ca).toContain('-----BEGIN CERTIFICATE-----');
    const res = await httpsRequest(`${m.url}/v2`, { ca: m.https!.ca!, headers: SERVICE_HEADERS });
    expect(res.status).toBe(200);
    expect(res.body).toContain(`xlink:href="${m.url}/v2/containers/`);
  });

  it('fetch in a child process trusts the mock through NODE_EXTRA_CA_CERTS, and refuses it without', async () => {
    const m = await start();
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: m.https!.caFile! };
    const trusted = await node(['--input-type=module', '-e', FETCH_V2, m.url], env);
    expect(trusted.output).toMatch(/^200 <cloud/);
    expect(trusted.code).toBe(0);
    const without = { ...process.env };
    delete without['NODE_EXTRA_CA_CERTS'];
    const refused = await node(['--input-type=module', '-e', FETCH_V2, m.url], without);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/fetch failed|certificate/i);
  });

  it('connectMock takes an https URL with the CA as its ca option, and says what to do without it', async () => {
    const m = await start();
    const remote = connectMock(m.url, { ca: m.https!.ca! });
    expect((await remote.scenario()).name).toBe('default');
    await httpsRequest(`${m.url}/v2`, { ca: m.https!.ca!, headers: SERVICE_HEADERS });
    expect((await remote.requests({ path: '/v2' })).map((r) => r.status)).toEqual([200]);

    const untrusting = connectMock(m.url);
    const err = await untrusting.scenario().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MockConnectionError);
    expect((err as Error).message).toMatch(
      /has a certificate this process does not trust \(\w+\): give connectMock the CA \(option ca; "csp-mock ca --path" prints its file\) or set NODE_EXTRA_CA_CERTS/,
    );
  });

  it('the control commands (csp-mock requests --url https://...) trust the local CA by themselves', async () => {
    const m = await start();
    await httpsRequest(`${m.url}/v2`, { ca: m.https!.ca!, headers: SERVICE_HEADERS });
    const env: NodeJS.ProcessEnv = { ...process.env, CSP_MOCK_CA_DIR: ca.path };
    delete env['NODE_EXTRA_CA_CERTS'];
    const listed = await node([CLI, 'requests', '--url', m.url, '--json'], env);
    expect(listed.code, listed.output).toBe(0);
    expect(JSON.parse(listed.output.trim().split('\n')[0]!)).toMatchObject({ method: 'GET', path: '/v2', status: 200 });
  });
});
