import { describe, expect, it } from 'vitest';
import { acceptsCloud2 } from '../../../src/rest/entry.js';
import { readXml, useCloud } from '../../helpers/cloud.js';

const CLOUD2 = 'application/vnd.csp.cloud2+xml';

describe('GET /v2 with Accept cloud2 (the sync client login)', () => {
  const cloud = useCloud();

  it('the login request (Accept cloud2, X-Cloud-Depth 1, X-Cloud-Key) gets cloud2 with the management and namespace container links', async () => {
    const res = await cloud.client
      .get('/v2')
      .set('Accept', CLOUD2)
      .set('X-Cloud-Depth', '1')
      .set('X-Cloud-Key', 'an-api-key')
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.csp\.cloud2\+xml/);
    expect(res.text.slice(0, 6)).toBe('<cloud');
    const doc = readXml(res.text).cloud;
    // What the client reads besides the management and namespace links (Login, commit 950c339).
    expect(doc.account['account-info'].username).toBe('demo');
    expect(doc.rootContainer.container.contents['@_xlink:href']).toMatch(/\/contents$/);
    expect(doc.locations.location.management['@_xlink:href']).toBe('http://127.0.0.1:8080/cdmi/demo');
    expect(doc.locations.location.rootContainer['@_xlink:href']).toBe(doc.rootContainer['@_xlink:href']);
    expect(doc.namespaces['@_xlink:href']).toBe('http://127.0.0.1:8080/v2/namespaces');
    expect(doc.namespaces.namespaces!.namespace.container['@_xlink:href']).toBe('http://127.0.0.1:8080/v2/namespace');
    expect(doc.namespaces.namespaces!.namespace.container['@_xlink:type']).toBe('simple');
  });

  it('at depth 0 the locations are there and namespaces is a bare link', async () => {
    const res = await cloud.client.get('/v2').set('Accept', CLOUD2).expect(200);
    const doc = readXml(res.text).cloud;
    expect(doc.locations.location.management['@_xlink:href']).toMatch(/\/cdmi\/demo$/);
    expect(doc.namespaces['@_xlink:href']).toMatch(/\/v2\/namespaces$/);
    expect(doc.namespaces.namespaces).toBeUndefined();
  });

  it('without cloud2 in Accept the answer is byte for byte the documented cloud entity', async () => {
    const plain = await cloud.client.get('/v2').set('X-Cloud-Depth', '1').expect(200);
    const other = await cloud.client.get('/v2').set('X-Cloud-Depth', '1').set('Accept', 'application/xml').expect(200);
    expect(other.text).toBe(plain.text);
    expect(other.headers['content-type']).toMatch(/^application\/vnd\.csp\.cloud\+xml/);
    expect(plain.text).not.toContain('locations');
  });

  it('GET /v2/namespaces (the later client reads it) names the namespace container', async () => {
    const res = await cloud.client.get('/v2/namespaces').expect(200);
    expect(readXml(res.text).namespaces.namespace.container['@_xlink:href']).toBe('http://127.0.0.1:8080/v2/namespace');
  });

  it.each([
    [CLOUD2, true],
    [`text/html, ${CLOUD2};q=0.5`, true],
    [`${CLOUD2.toUpperCase()}`, true],
    [`${CLOUD2};q=0`, false],
    ['application/vnd.csp.cloud+xml', false],
    ['*/*', false],
  ])('Accept %j names cloud2: %s', (accept, expected) => {
    expect(acceptsCloud2(accept)).toBe(expected);
  });
});
