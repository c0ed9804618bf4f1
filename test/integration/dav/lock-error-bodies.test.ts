import { describe, expect, it } from 'vitest';
import { parseNamespacedXml, elementsOf, textContent, type XmlElement } from '../../../src/xml/namespaced.js';
import { useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

const lockinfo = (scope: 'exclusive' | 'shared') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;

/** The one condition element of a DAV:error body, with the hrefs it names. */
function errorCondition(res: { text: string; headers: Record<string, string> }): {
  ns: string;
  local: string;
  hrefs: string[];
  text: string;
} {
  expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
  const root = parseNamespacedXml(res.text);
  expect([root.ns, root.local]).toEqual(['DAV:', 'error']);
  const [condition] = elementsOf(root) as [XmlElement];
  const hrefs = elementsOf(condition)
    .filter((e) => e.ns === 'DAV:' && e.local === 'href')
    .map(textContent);
  return { ns: condition.ns, local: condition.local, hrefs, text: textContent(condition) };
}

describe('RFC 4918 16 error bodies on 423 and 412 (issue 11, item 5, second half)', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;

  async function lock(path: string, depth: string, scope: 'exclusive' | 'shared' = 'exclusive', status = 200) {
    return dav(app(), 'LOCK', path).set('Depth', depth).send(lockinfo(scope)).expect(status);
  }

  it('a write without the token is 423 with DAV:lock-token-submitted naming the lock root', async () => {
    await dav(app(), 'MKCOL', '/dav/My%20Box/').expect(201);
    await dav(app(), 'PUT', '/dav/My%20Box/a.txt').send('a').expect(201);
    await lock('/dav/My%20Box/', 'infinity');
    const put = await dav(app(), 'PUT', '/dav/My%20Box/a.txt').send('b').expect(423);
    expect(errorCondition(put)).toMatchObject({ ns: 'DAV:', local: 'lock-token-submitted', hrefs: ['/dav/My%20Box/'] });
    const del = await dav(app(), 'DELETE', '/dav/My%20Box/a.txt').expect(423);
    expect(errorCondition(del).hrefs).toEqual(['/dav/My%20Box/']);
  });

  it('a locked file names itself', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('a').expect(201);
    await lock('/dav/f.txt', '0');
    const res = await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(
        '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>',
      )
      .expect(423);
    expect(errorCondition(res)).toMatchObject({ local: 'lock-token-submitted', hrefs: ['/dav/f.txt'] });
  });

  it('a LOCK that conflicts with an existing lock is 423 with DAV:no-conflicting-lock naming its root', async () => {
    await dav(app(), 'MKCOL', '/dav/box/').expect(201);
    await dav(app(), 'PUT', '/dav/box/a.txt').send('a').expect(201);
    await lock('/dav/box/', 'infinity', 'shared');
    const res = await lock('/dav/box/a.txt', '0', 'exclusive', 423);
    expect(errorCondition(res)).toMatchObject({ ns: 'DAV:', local: 'no-conflicting-lock', hrefs: ['/dav/box/'] });
  });

  it('a 412 names the conditional header that failed; REST 423s stay text/plain', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('a').expect(201);
    await dav(app(), 'PUT', '/dav/g.txt').send('g').expect(201);
    const ifMatch = await dav(app(), 'PUT', '/dav/f.txt').set('If-Match', '"nope"').send('b').expect(412);
    expect(errorCondition(ifMatch)).toMatchObject({
      ns: 'urn:csp-mock',
      local: 'failed-precondition',
      text: 'If-Match',
    });
    const overwrite = await dav(app(), 'COPY', '/dav/f.txt')
      .set('Destination', '/dav/g.txt')
      .set('Overwrite', 'F')
      .expect(412);
    expect(errorCondition(overwrite).text).toBe('Overwrite');
    const ifHeader = await dav(app(), 'PUT', '/dav/f.txt').set('If', '(["nope"])').send('b').expect(412);
    expect(errorCondition(ifHeader).text).toBe('If');

    await lock('/dav/f.txt', '0');
    const id = cloud.client.mock.store.resolvePath('demo', ['f.txt'])!.id;
    const rest = await cloud.client.delete(`/v2/files/${id}`).expect(423);
    expect(rest.headers['content-type']).toBe('text/plain; charset=UTF-8');
  });
});
