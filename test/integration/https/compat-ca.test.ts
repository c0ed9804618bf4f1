import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { CLI } from '../../helpers/cli.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';
import { runProgram } from '../../peers/peer-process.js';

describe('the compat CA: no name constraints, for runtimes that refuse them (Mono)', { timeout: 60_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('https: { compatCa: true } signs with a CA that has no name-constraints extension; its key is 0600; Node trusts it for localhost', async () => {
    mock = await startMock({ https: { caDir: ca.path, compatCa: true } });
    const https = mock.https!;
    expect(https.caCompat).toBe(true);
    expect(https.caFile).toBe(join(ca.path, 'ca-compat.pem'));
    const cert = forge.pki.certificateFromPem(https.ca!);
    expect(cert.getExtension('nameConstraints')).toBeNull();
    expect(cert.getExtension('basicConstraints')).toMatchObject({ cA: true, pathLenConstraint: 0 });
    expect((await stat(join(ca.path, 'ca-compat-key.pem'))).mode & 0o777).toBe(0o600);
    const answer = await httpsRequest(`https://localhost:${https.port}/v2`, {
      ca: https.ca!,
      headers: SERVICE_HEADERS,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/^<cloud/);
  });

  it('the default local CA keeps its constraints and its own files: the two CAs differ', async () => {
    mock = await startMock({ https: { caDir: ca.path } });
    const constrained = mock.https!;
    await mock.close();
    mock = await startMock({ https: { caDir: ca.path, compatCa: true } });
    expect(constrained.caCompat).toBe(false);
    expect(constrained.caFile).toBe(join(ca.path, 'ca.pem'));
    expect(forge.pki.certificateFromPem(constrained.ca!).getExtension('nameConstraints')).not.toBeNull();
    expect(constrained.ca).not.toBe(mock.https!.ca);
    // A client trusting only the constrained CA does not trust the compat CA's certificate.
    await expect(
      httpsRequest(`https://localhost:${mock.https!.port}/v2`, { ca: constrained.ca!, headers: SERVICE_HEADERS }),
    ).rejects.toThrow(/certificate/i);
  });

  it('"csp-mock ca --compat --port 8443" names the compat CA, says what it gives up, and suggests localhost on that port', async () => {
    const run = await runProgram(process.execPath, [CLI, 'ca', '--compat', '--port', '8443'], {
      env: { CSP_MOCK_CA_DIR: ca.path },
    });
    expect(run.code, run.output).toBe(0);
    const file = join(ca.path, 'ca-compat.pem');
    expect(run.output.split('\n')[0]).toMatch(new RegExp(`^csp-mock compat CA: ${file}`));
    expect(run.output).toContain('no name constraints');
    expect(run.output).toContain('keep it private');
    expect(run.output).toContain(`its key:     ${join(ca.path, 'ca-compat-key.pem')}`);
    expect(run.output).toContain(`curl --cacert ${file} https://localhost:8443/v2`);
    expect(run.output).not.toContain('127.0.0.1:8080');
  });
});
