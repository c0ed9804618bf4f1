import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AUTH, readXml, useCloud } from '../../helpers/cloud.js';

const LINKS = [
  'rootContainer',
  'contacts',
  'shares',
  'projects',
  'metacontainers',
  'account',
  'tags',
  'recyclebin',
] as const;

describe('GET /v2 entry document (row 1, rule 1)', () => {
  const cloud = useCloud();

  it('row 1: returns the cloud entity with the eight links, in order, each with xlink:href and xlink:type simple', async () => {
    const res = await cloud.client.get('/v2').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.csp\.cloud\+xml/);
    const cloudEl = readXml(res.text).cloud;
    expect(Object.keys(cloudEl).filter((k) => !k.startsWith('@_'))).toEqual(LINKS);
    for (const name of LINKS) {
      expect(cloudEl[name]['@_xlink:type']).toBe('simple');
      expect(cloudEl[name]['@_xlink:href']).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/v2\//);
    }
    expect(cloudEl['@_xmlns:xlink']).toBe('http://www.w3.org/1999/xlink');
  });

  it('starts the body with "<cloud": no XML declaration, BOM or whitespace', async () => {
    const res = await cloud.client.get('/v2').expect(200);
    expect(res.text.slice(0, 6)).toBe('<cloud');
  });

  it('serves /v2/ with a trailing slash, Java default Accept, unknown query parameters and no X-Client-Specification', async () => {
    const res = await request(cloud.client.app)
      .get('/v2/?n=638000000000')
      .auth(AUTH.user, AUTH.password)
      .set('Accept', 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2')
      .expect(200);
    expect(res.text.startsWith('<cloud')).toBe(true);
  });

  it('builds absolute links from the request Host, all on one scheme, host and port', async () => {
    const res = await cloud.client.get('/v2').set('Host', 'cloud.example.test:8443').expect(200);
    const hrefs = [...res.text.matchAll(/xlink:href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs).toHaveLength(8);
    for (const href of hrefs) expect(new URL(href).host).toBe('cloud.example.test:8443');
  });

  it('X-Cloud-Depth 1 wraps one full entity in each link (rootContainer/container/contents, account/account-info/username)', async () => {
    const res = await cloud.client.get('/v2').set('X-Cloud-Depth', '1').expect(200);
    const cloudEl = readXml(res.text).cloud;
    expect(cloudEl.rootContainer.container.name).toBe('/');
    expect(cloudEl.rootContainer.container.contents['@_xlink:href']).toMatch(/\/contents$/);
    expect(cloudEl.account['account-info'].username).toBe('demo');
    expect(cloudEl.tags.tags['@_total']).toBe('0');
  });

  it('Versioning 1: the REST interface is versioned by the path prefix /v2; other versions are 404', async () => {
    // Paths are matched as written, as the addresses the service hands out are followed as given (inferred):
    // /V2 and /v2/Account are not the service's.
    for (const path of ['/v1', '/v3', '/v1/containers/x', '/V2', '/v2/Account']) {
      const res = await cloud.client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    }
  });
});
