import { X509Certificate } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../../src/index.js';
import { openLocalCa, serverCertificate } from '../../../src/tls/local-ca.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const NAMES = ['localhost', '::1', '127.0.0.1'];

// Each test makes RSA keys and signs certificates: seconds on a loaded machine.
describe('the local CA is made once; server certificates are cached and renewed', { timeout: 60_000 }, () => {
  const dir = useTempDir('ca-life');

  it('three mocks starting at once in an empty folder end up with one CA', async () => {
    const caDir = join(dir.path, 'ca');
    const mocks = await Promise.all([1, 2, 3].map(() => startMock({ https: { caDir } })));
    const cas = new Set(mocks.map((m) => m.https!.ca));
    await Promise.all(mocks.map((m) => m.close()));
    expect(cas.size).toBe(1);
    expect(mocks.filter((m) => m.https!.caCreated).length).toBe(1);
    const files = await readdir(caDir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a second start reuses the CA and the server certificate; another public URL host gets its own', async () => {
    const caDir = join(dir.path, 'ca');
    const first = await startMock({ https: { caDir } });
    const again = await startMock({ https: { caDir } });
    const other = await startMock({ https: { caDir }, publicUrl: 'https://files.example.test:9443' });
    const served = async (url: string): Promise<string> => {
      return new Promise((resolve, reject) => {
        const u = new URL(url);
        const socket = connect(
          { host: u.hostname, port: Number(u.port), ca: first.https!.ca!, servername: 'localhost' },
          () => {
            resolve(socket.getPeerX509Certificate()!.fingerprint256);
            socket.end();
          },
        );
        socket.on('error', reject);
      });
    };
    try {
      expect(again.https!.caCreated).toBe(false);
      expect(again.https!.ca).toBe(first.https!.ca);
      expect(await served(again.url)).toBe(await served(first.url));
      expect(other.https!.names).toEqual(['files.example.test', 'localhost', '::1', '127.0.0.1']);
      expect(await served(other.url)).not.toBe(await served(first.url));
    } finally {
      await Promise.all([first.close(), again.close(), other.close()]);
    }
  });

  it('a server certificate with less than 30 days left is made anew; one with more is kept', async () => {
    const ca = await openLocalCa(join(dir.path, 'ca'));
    const now = new Date();
    const first = await serverCertificate(ca, NAMES, now);
    expect(await serverCertificate(ca, NAMES, new Date(now.getTime() + 50 * DAY_MS))).toEqual(first);
    const renewed = await serverCertificate(ca, NAMES, new Date(now.getTime() + 70 * DAY_MS));
    expect(renewed.certPem).not.toBe(first.certPem);
    const cert = new X509Certificate(renewed.certPem);
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:0:0:0:0:0:0:0:1, IP Address:127.0.0.1');
  });

  it('a CA with less than 30 days left is replaced by a new one (and says so); its server certificates follow', async () => {
    const caDir = join(dir.path, 'ca');
    const old = await openLocalCa(caDir);
    expect(old.created).toBe(true);
    const late = new Date(old.notAfter.getTime() - 10 * DAY_MS);
    const oldServer = await serverCertificate(old, NAMES, late);
    const renewed = await openLocalCa(caDir, late);
    expect(renewed.created).toBe(true);
    expect(renewed.certPem).not.toBe(old.certPem);
    const server = await serverCertificate(renewed, NAMES, late);
    expect(server.certPem).not.toBe(oldServer.certPem);
    expect(new X509Certificate(server.certPem).checkIssued(new X509Certificate(renewed.certPem))).toBe(true);
  });

  it('the CA is valid about two years, a server certificate 90 days and never past its CA', async () => {
    const ca = await openLocalCa(join(dir.path, 'ca'));
    const days = (cert: X509Certificate): number =>
      Math.round((Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / DAY_MS);
    expect(days(new X509Certificate(ca.certPem))).toBe(730);
    expect(days(new X509Certificate((await serverCertificate(ca, NAMES)).certPem))).toBe(90);
    const nearEnd = new Date(ca.notAfter.getTime() - 40 * DAY_MS);
    const capped = new X509Certificate((await serverCertificate(ca, ['localhost'], nearEnd)).certPem);
    expect(Date.parse(capped.validTo)).toBe(ca.notAfter.getTime());
  });
});
