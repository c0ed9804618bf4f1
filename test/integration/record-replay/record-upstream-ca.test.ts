import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { makeCaCertificate, makeServerCertificate } from '../../../src/tls/certificate-maker.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const AUTH = `Basic ${Buffer.from('demo:demo').toString('base64')}`;

describe('record --upstream https://... behind an internal CA (--upstream-ca)', { timeout: 60_000 }, () => {
  const dir = useTempDir('upstream-ca');
  let upstream: Server | undefined;
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    upstream = undefined;
  });

  /** An HTTPS upstream whose certificate an internal CA (made here) signed; its CA file. */
  async function internalUpstream(): Promise<{ url: string; caFile: string }> {
    const ca = await makeCaCertificate('internal test CA');
    const pair = await makeServerCertificate(ca, ['localhost', '127.0.0.1']);
    upstream = createServer({ key: pair.keyPem, cert: pair.certPem }, (_req, res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.end('from the internal upstream\n');
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', () => resolve()));
    const caFile = join(dir.path, 'internal-ca.pem');
    await writeFile(caFile, ca.certPem);
    return { url: `https://127.0.0.1:${(upstream.address() as AddressInfo).port}`, caFile };
  }

  const record = (upstreamUrl: string, upstreamCa?: string) =>
    startMock({ mode: { kind: 'record', upstream: upstreamUrl, out: join(dir.path, 'session.jsonl'), upstreamCa } });

  it('without it, the 502 names the unverifiable certificate and the option; with it, the exchange goes through', async () => {
    const { url, caFile } = await internalUpstream();
    mock = await record(url);
    const refused = await fetch(`${mock.url}/v2`, { headers: { Authorization: AUTH } });
    expect(refused.status).toBe(502);
    const text = await refused.text();
    expect(text).toContain('cannot verify');
    expect(text).toContain('--upstream-ca FILE');
    await mock.close();
    mock = await record(url, caFile);
    const through = await fetch(`${mock.url}/v2`, { headers: { Authorization: AUTH } });
    expect(through.status).toBe(200);
    expect(await through.text()).toBe('from the internal upstream\n');
  });

  it('a file that is not a PEM certificate, a folder, or one over 1 MiB is refused at start, naming it', async () => {
    const { url } = await internalUpstream();
    const notPem = join(dir.path, 'not.pem');
    await writeFile(notPem, 'hello');
    await expect(record(url, notPem)).rejects.toThrow(`--upstream-ca ${notPem} is not a PEM certificate`);
    await expect(record(url, dir.path)).rejects.toThrow(/cannot read the upstream CA .*(folder|directory|regular)/);
    const big = join(dir.path, 'big.pem');
    await writeFile(big, Buffer.alloc(1024 * 1024 + 1, 0x41));
    await expect(record(url, big)).rejects.toThrow(/cannot read the upstream CA/);
  });
});
