import { describe, expect, it } from 'vitest';
import { pathOf, useCloud } from '../../helpers/cloud.js';

const CONTAINER_INFO = 'application/vnd.csp.container-info+xml';

describe('REST entities read as XML parsers read them (issue 11, items 1-3)', () => {
  const cloud = useCloud();

  async function create(body: string | Buffer, status = 201) {
    const root = await cloud.client.rootPath();
    return cloud.client.post(`${root}/contents`).set('Content-Type', CONTAINER_INFO).send(body).expect(status);
  }
  async function nameAt(res: { text: string }): Promise<string> {
    // The raw text, not readXml: its parser would trim the name.
    const body = (await cloud.client.get(pathOf(res.text.trim())).expect(200)).text;
    return /<name>([^<]*)<\/name>/.exec(body)![1]!;
  }

  it('item 1: a name sent as the C# client HtmlEncodes it (caf&#233; &#x1F600;) is stored decoded', async () => {
    expect(await nameAt(await create('<container><name>caf&#233; &#x1F600;</name></container>'))).toBe('café 😀');
  });

  it('item 1: a DOCTYPE or a custom entity is still 400', async () => {
    await create('<!DOCTYPE c [<!ENTITY e "x">]><container><name>&e;</name></container>', 400);
    await create('<container><name>&nbsp;</name></container>', 400);
  });

  it('item 2: leading and trailing spaces of a name are kept, in REST and in the WebDAV view', async () => {
    expect(await nameAt(await create('<container>\n  <name>  padded  </name>\n</container>'))).toBe('  padded  ');
    await cloud.client.get('/dav/%20%20padded%20%20/').expect(200);
  });

  it('item 3: a UTF-16 body with its BOM and an ISO-8859-1 body are decoded as declared', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<?xml version="1.0" encoding="UTF-16"?><container><name>Zoë</name></container>', 'utf16le'),
    ]);
    expect(await nameAt(await create(utf16))).toBe('Zoë');
    const latin1 = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><container><name>Café</name></container>',
      'latin1',
    );
    expect(await nameAt(await create(latin1))).toBe('Café');
  });

  it('item 3: an encoding we do not read is 415 text/plain', async () => {
    const res = await create(
      Buffer.from('<?xml version="1.0" encoding="EBCDIC-US"?><container><name>x</name></container>'),
      415,
    );
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.text).toMatch(/encoding "ebcdic-us"/);
  });
});
