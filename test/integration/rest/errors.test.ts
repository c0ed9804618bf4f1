import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { basic, listenOnLoopback, rawExchange } from '../../helpers/raw-http.js';

const TEXT_PLAIN = 'text/plain; charset=UTF-8';

describe('errors (the Errors table)', () => {
  const cloud = useCloud();

  it.each([['application/octet-stream'], ['text/plain'], ['binary'], ['application/xml'], ['application/json']])(
    '415 Unsupported Media Type with text/plain; charset=UTF-8 for a POST to contents as %s',
    async (type) => {
      const root = await cloud.client.rootPath();
      const res = await cloud.client
        .post(`${root}/contents`)
        .set('Content-Type', type)
        .send(Buffer.from('<container><name>x</name></container>'))
        .expect(415);
      expect(res.headers['content-type']).toBe(TEXT_PLAIN);
      expect(await cloud.client.childNames(root)).toEqual([]);
    },
  );

  it('415 for a POST to contents with no Content-Type at all', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client.post(`${root}/contents`).expect(415).expect('Content-Type', TEXT_PLAIN);
  });

  it('400 for XML that is malformed, has the wrong root, or lacks a valid name; nothing is created', async () => {
    const root = await cloud.client.rootPath();
    const post = (type: string, body: string) =>
      cloud.client.post(`${root}/contents`).set('Content-Type', type).send(body);
    const cases: Array<[string, string]> = [
      ['application/vnd.csp.container-info+xml', '<container><name>unclosed</container>'],
      ['application/vnd.csp.container-info+xml', '<file><name>wrong root</name></file>'],
      ['application/vnd.csp.container-info+xml', '<container><name></name></container>'],
      ['application/vnd.csp.container-info+xml', '<container/>'],
      ['application/vnd.csp.container-info+xml', `<container><name>${'n'.repeat(256)}</name></container>`],
      ['application/vnd.csp.container-info+xml', '<container><name>a/b</name></container>'],
      ['application/vnd.csp.file-info+xml', '<file><name>back\\slash.txt</name></file>'],
      ['application/vnd.csp.file-info+xml', 'just some words'],
      ['application/vnd.csp.file-info+xml', '<file><name>x</name><public>maybe</public></file>'],
      ['application/vnd.csp.file-info+xml', ''],
    ];
    for (const [type, body] of cases) {
      const res = await post(type, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(res.headers['content-type']).toBe(TEXT_PLAIN);
    }
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('never expands entities or follows a DOCTYPE (billion laughs, external entity): 400', async () => {
    const root = await cloud.client.rootPath();
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><container><name>&lol3;</name></container>';
    const xxe = '<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><container><name>&x;</name></container>';
    for (const body of [bomb, xxe]) {
      const res = await cloud.client
        .post(`${root}/contents`)
        .set('Content-Type', 'application/vnd.csp.container-info+xml')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/DOCTYPE/);
    }
    expect(await cloud.client.childNames(root)).toEqual([]);
  });

  it('answers 400, not 500, to XML nested deeper than the parser allows', async () => {
    const root = await cloud.client.rootPath();
    const deep = `<container><name>x</name>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</container>`;
    const res = await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send(deep);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/malformed XML/);
    await cloud.client.get('/v2').expect(200);
  });

  it('decodes the predefined entities in names (&amp; &lt;)', async () => {
    const root = await cloud.client.rootPath();
    await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send('<container><name>R&amp;D &lt;2&gt;</name></container>')
      .expect(201);
    expect(await cloud.client.childNames(root)).toEqual(['R&D <2>']);
  });

  it('413 for an over-large XML entity, and the server keeps serving', async () => {
    const root = await cloud.client.rootPath();
    const huge = `<container><name>${'x'.repeat(2 * 1024 * 1024)}</name></container>`;
    await cloud.client
      .post(`${root}/contents`)
      .set('Content-Type', 'application/vnd.csp.container-info+xml')
      .send(huge)
      .expect(413);
    await cloud.client.get('/v2').expect(200);
  });

  it('404 text/plain for unknown ids and unknown addresses', async () => {
    for (const path of [
      '/v2/containers/nope',
      '/v2/containers/nope/contents',
      '/v2/files/nope',
      '/v2/files/nope/content',
      '/v2/nothing',
      '/elsewhere',
    ]) {
      const res = await cloud.client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe(TEXT_PLAIN);
    }
  });

  it('404 when a container id is used as a file id and the other way round', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'f.txt', 'f');
    await cloud.client.get(root.replace('/containers/', '/files/')).expect(404);
    await cloud.client.get(file.replace('/files/', '/containers/')).expect(404);
  });

  it('405 with an Allow header for a method a resource does not serve', async () => {
    const root = await cloud.client.rootPath();
    const res = await cloud.client.delete('/v2').expect(405);
    expect(res.headers['allow']).toContain('GET');
    expect(res.headers['content-type']).toBe(TEXT_PLAIN);
    await cloud.client.put(`${root}/contents`).send('x').expect(405);
    await cloud.client.post('/v2/tags').send('x').expect(405);
  });
});

describe('500 + Connection: close for a binary body under an XML media type (Errors row 2)', () => {
  const cloud = useCloud();
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it.each([['application/vnd.csp.file-info+xml'], ['application/vnd.csp.container-info+xml']])(
    'a 4096-byte binary body as %s: 500 text/plain; charset=UTF-8, Connection: close, and the socket is closed',
    async (type) => {
      const server = await listenOnLoopback(cloud.client.app);
      close = server.close;
      const root = await cloud.client.rootPath();
      const body = randomBytes(4096);
      body[0] = 0; // surely not text
      const head =
        `POST ${root}/contents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('demo', 'demo')}\r\n` +
        `X-Client-Specification: 2\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`;
      // The client asks for keep-alive (no Connection header); the server must still close.
      const exchange = await rawExchange(server.port, [head, body], 3000);
      const text = exchange.received.toString('latin1');
      expect(text.startsWith('HTTP/1.1 500 Internal Server Error\r\n')).toBe(true);
      expect(text).toMatch(/\r\nContent-Type: text\/plain; charset=UTF-8\r\n/i);
      expect(text).toMatch(/\r\nConnection: close\r\n/i);
      expect(exchange.closedByServer).toBe(true);
      expect(await cloud.client.childNames(root)).toEqual([]);
    },
  );
});
