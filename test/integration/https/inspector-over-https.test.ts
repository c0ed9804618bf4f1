import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { launchChromiumProfile } from '../../helpers/chromium.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';

/** The base64 SHA-256 of the server certificate's public key, as Chromium's pin list takes it. */
function spkiPin(url: string, ca: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port), ca, servername: 'localhost' }, () => {
      const spki = socket.getPeerX509Certificate()!.publicKey.export({ type: 'spki', format: 'der' });
      resolve(createHash('sha256').update(spki).digest('base64'));
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('the inspector over HTTPS', { timeout: 90_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  afterEach(async () => {
    await context?.close();
    await mock?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('loads the page, goes Live on its event stream and shows a request made over HTTPS', async () => {
    mock = await startMock({ https: { caDir: ca.path }, log: () => undefined });
    const pin = await spkiPin(mock.url, mock.https!.ca!);
    profile = await mkdtemp(join(tmpdir(), 'csp-mock-chromium-tls-'));
    // Chromium trusts this one server key and nothing else added: no system store is touched.
    context = await launchChromiumProfile(profile, { extraArgs: [`--ignore-certificate-errors-spki-list=${pin}`] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const answer = await page.goto(`${mock.url}/__admin/`);
    expect(answer?.status()).toBe(200);
    expect(page.url().startsWith('https://')).toBe(true);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });

    const res = await httpsRequest(`${mock.url}/v2/account`, { ca: mock.https!.ca!, headers: SERVICE_HEADERS });
    expect(res.status).toBe(200);
    const row = page
      .getByRole('region', { name: 'Requests' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: '/v2/account' }) });
    await row.getByText('200').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});
