import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { fetchAs } from '../../helpers/cli.js';
import { asArray, readXml } from '../../helpers/cloud.js';
import { httpsRequest, SERVICE_HEADERS, useCaFolder } from '../../helpers/tls.js';

/** Every xlink:href in an XML document. */
const hrefsOf = (xml: string): string[] => [...xml.matchAll(/xlink:href="([^"]+)"/g)].map((m) => m[1]!);

describe('links in /v2 XML follow the scheme the client used', { timeout: 60_000 }, () => {
  const ca = useCaFolder();
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('over HTTPS the entry document and every href of a container listing are https on the HTTPS port', async () => {
    mock = await startMock({ https: { caDir: ca.path } });
    const get = (url: string, headers: Record<string, string> = {}) =>
      httpsRequest(url, { ca: mock!.https!.ca!, headers: { ...SERVICE_HEADERS, ...headers } });
    const entry = await get(`${mock.url}/v2`);
    const root = readXml(entry.body).cloud.rootContainer['@_xlink:href'] as string;
    expect(root.startsWith(`${mock.url}/v2/containers/`)).toBe(true);
    const listing = await get(`${root}/contents`, { 'X-Cloud-Depth': '1' });
    expect(listing.status).toBe(200);
    const hrefs = [...hrefsOf(entry.body), ...hrefsOf(listing.body)];
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href.startsWith(`${mock.url}/`), href).toBe(true);
    // A file reached through those links.
    const file = asArray(readXml(listing.body)['file-list'].file)[0]!['@_xlink:href'] as string;
    expect((await get(`${file}/content`)).status).toBe(200);
  });

  it('X-Forwarded-Proto: https on plain HTTP does not turn links to https (the header is not trusted)', async () => {
    mock = await startMock({});
    const xml = await (await fetchAs(`${mock.url}/v2`, { headers: { 'X-Forwarded-Proto': 'https' } })).text();
    for (const href of hrefsOf(xml)) expect(href.startsWith(`${mock.url}/`), href).toBe(true);
  });

  it('a --public-url host is in the certificate, and links use the public URL', async () => {
    mock = await startMock({ https: { caDir: ca.path }, publicUrl: 'https://cloud.example.test' });
    expect(mock.https!.names).toContain('cloud.example.test');
    const xml = (await httpsRequest(`${mock.url}/v2`, { ca: mock.https!.ca!, headers: SERVICE_HEADERS })).body;
    for (const href of hrefsOf(xml)) expect(href.startsWith('https://cloud.example.test/'), href).toBe(true);
  });
});
