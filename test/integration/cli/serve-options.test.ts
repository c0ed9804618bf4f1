import { describe, expect, it } from 'vitest';
import { readXml } from '../../helpers/cloud.js';
import { basic, BASIC_DEMO, fetchAs } from '../../helpers/cli.js';
import { serveHere as serve, stopListeningAfterEach } from './in-process.js';

async function rootNames(url: string, auth?: string): Promise<string[]> {
  const entry = readXml(await (await fetchAs(`${url}/v2`, { auth })).text());
  const contents = new URL(entry.cloud.rootContainer['@_xlink:href'] + '/contents').pathname;
  const res = await fetchAs(`${url}${contents}`, { auth, headers: { 'X-Cloud-Depth': '1' } });
  const text = await res.text();
  return [...text.matchAll(/<name>([^<]*)<\/name>/g)].map((m) => m[1]!);
}

describe('csp-mock serve options', () => {
  stopListeningAfterEach();

  it('starts with the demo tree by default and with an empty tree under --empty', async () => {
    const demo = await serve();
    expect(await rootNames(demo.url)).toEqual(expect.arrayContaining(['Documents', 'Photos', 'hello.json']));
    const empty = await serve(['--empty']);
    expect(await rootNames(empty.url)).toEqual([]);
  });

  it('takes repeatable --user NAME:PASSWORD (passwords may hold colons), each with its own tree, replacing demo:demo', async () => {
    const server = await serve(['--empty', '--user', 'ann:secret', '--user', 'bob:pa:ss']);
    const ann = basic('ann', 'secret');
    const bob = basic('bob', 'pa:ss');
    expect((await fetchAs(`${server.url}/v2`, { auth: ann })).status).toBe(200);
    expect((await fetchAs(`${server.url}/v2`, { auth: bob })).status).toBe(200);
    const refused = await fetchAs(`${server.url}/v2`, { auth: BASIC_DEMO });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic /);
    const annEntry = readXml(await (await fetchAs(`${server.url}/v2`, { auth: ann })).text());
    const bobEntry = readXml(await (await fetchAs(`${server.url}/v2`, { auth: bob })).text());
    expect(annEntry.cloud.rootContainer['@_xlink:href']).not.toBe(bobEntry.cloud.rootContainer['@_xlink:href']);
    expect(server.stdout.find((l) => l.startsWith('  users:'))).toMatch(/users: +ann, bob/);
  });

  it('builds links and created addresses on --public-url instead of the request Host', async () => {
    const server = await serve(['--empty', '--public-url', 'https://cloud.example.test/']);
    const text = await (await fetchAs(`${server.url}/v2`)).text();
    const hrefs = [...text.matchAll(/xlink:href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs).toHaveLength(8);
    for (const href of hrefs) expect(href.startsWith('https://cloud.example.test/v2/')).toBe(true);
    const contents = `${server.url}${new URL(readXml(text).cloud.rootContainer['@_xlink:href']).pathname}/contents`;
    const created = await fetchAs(contents, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.csp.container-info+xml' },
      body: '<container><name>made</name></container>',
    });
    expect(created.status).toBe(201);
    expect(await created.text()).toMatch(/^https:\/\/cloud\.example\.test\/v2\/containers\/\S+\r\n$/);
    expect(created.headers.get('location')).toMatch(/^https:\/\/cloud\.example\.test\/v2\/containers\//);
  });

  it('--strict refuses a request without X-Client-Specification with 400 text/plain; without --strict it is served and warned about', async () => {
    const strict = await serve(['--strict']);
    const refused = await fetchAs(`${strict.url}/v2`, { spec: false });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await refused.text()).toMatch(/X-Client-Specification/);
    expect((await fetchAs(`${strict.url}/v2`)).status).toBe(200);

    const lenient = await serve();
    expect((await fetchAs(`${lenient.url}/v2`, { spec: false })).status).toBe(200);
    await lenient.waitForLine(/warning: .*no X-Client-Specification header/);
  });

  it('logs one line per request with method, path and status, never the credentials or the query', async () => {
    const server = await serve(['--user', 'ann:TopSecret99']);
    const auth = basic('ann', 'TopSecret99');
    await fetchAs(`${server.url}/v2?apikey=QueryKey77`, { auth, headers: { 'X-Cloud-Key': 'CloudKey55' } });
    await fetchAs(`${server.url}/v2/containers/nope`, { auth });
    await fetchAs(`${server.url}/v2`, { auth: basic('ann', 'WrongPass11') });
    const first = await server.waitForLine(/^GET \/v2 200 /);
    expect(first).toMatch(/user=ann/);
    await server.waitForLine(/^GET \/v2\/containers\/nope 404 /);
    await server.waitForLine(/^GET \/v2 401 /);
    const requestLines = server.stdout.filter((l) => /^(GET|POST|PUT|DELETE) /.test(l));
    expect(requestLines).toHaveLength(3);
    const everything = [...server.stdout, ...server.stderr].join('\n');
    for (const secret of ['TopSecret99', 'WrongPass11', auth.slice(6), 'QueryKey77', 'CloudKey55']) {
      expect(everything).not.toContain(secret);
    }
  });
});
