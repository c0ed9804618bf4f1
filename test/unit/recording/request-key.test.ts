import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IGNORED_QUERY,
  DEFAULT_MATCH_HEADERS,
  differences,
  keyString,
  requestKey,
  splitUrl,
  withoutBody,
  type MatchOptions,
  type RequestParts,
} from '../../../src/recording/request-key.js';

const OPTIONS: MatchOptions = { headers: DEFAULT_MATCH_HEADERS, ignoreQuery: DEFAULT_IGNORED_QUERY, redacted: [] };
const ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

const BASE: RequestParts = {
  method: 'PUT',
  path: '/v2/files/abc',
  query: [['start', '0']],
  headers: { 'content-type': 'application/vnd.csp.file-info+xml' },
  body: Buffer.from('<file><name>a.txt</name></file>'),
};

const multipart = (boundary: string): RequestParts => ({
  ...BASE,
  method: 'POST',
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nhi\r\n--${boundary}--\r\n`),
});

const xmlWithOrigin = (origin: string): RequestParts => ({
  ...BASE,
  body: Buffer.from(`<file><parent xlink:href="${origin}/v2/containers/r"/></file>`),
});

const key = (parts: RequestParts, options: MatchOptions = OPTIONS) => keyString(requestKey(parts, options, ORIGINS));

describe('request key: what makes two requests the same for replay', () => {
  it.each<[string, Partial<RequestParts> | RequestParts, Partial<RequestParts> | RequestParts]>([
    ['the method in any case', { method: 'put' }, { method: 'PUT' }],
    [
      'query parameters in any order',
      {
        query: [
          ['a', '1'],
          ['b', '2'],
        ],
      },
      {
        query: [
          ['b', '2'],
          ['a', '1'],
        ],
      },
    ],
    ['the cache-buster ?n= (any case) ignored', { query: [['n', '638000']] }, { query: [['N', '1']] }],
    [
      'a secret-looking query parameter ignored',
      { query: [['access_token', 'x']] },
      { query: [['access_token', 'y']] },
    ],
    ['a header that does not change the answer', { headers: { ...BASE.headers, 'user-agent': 'a' } }, {}],
    [
      'the media type without its parameters, any case',
      { headers: { 'content-type': 'Application/Vnd.CSP.File-Info+XML; charset=UTF-8' } },
      {},
    ],
    ['the multipart boundary', multipart('AaB03x'), multipart('----WebKitFormBoundary7MA4YWxkTrZu0gW')],
    [
      'the server origin inside an XML body',
      xmlWithOrigin('http://127.0.0.1:8080'),
      xmlWithOrigin('http://localhost:8080'),
    ],
    [
      'the server origin in a Destination header',
      { headers: { ...BASE.headers, destination: 'http://127.0.0.1:8080/dav/b' } },
      { headers: { ...BASE.headers, destination: 'http://localhost:8080/dav/b' } },
    ],
    [
      'a repeated header read as one value',
      { headers: { ...BASE.headers, depth: ['1'] } },
      { headers: { ...BASE.headers, depth: '1' } },
    ],
  ])('same: %s', (_what, a, b) => {
    expect(key({ ...BASE, ...a })).toBe(key({ ...BASE, ...b }));
  });

  it.each<[string, Partial<RequestParts> | RequestParts, Partial<RequestParts> | RequestParts]>([
    ['another method', { method: 'GET' }, {}],
    ['another path', { path: '/v2/files/abd' }, {}],
    ['a path that differs only in case', { path: '/v2/files/ABC' }, {}],
    ['another query value', { query: [['start', '1']] }, {}],
    [
      'one more query parameter',
      {
        query: [
          ['start', '0'],
          ['count', '5'],
        ],
      },
      {},
    ],
    [
      'a query value that only looks like the same pair joined',
      { query: [['a', 'b&c=d']] },
      {
        query: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      },
    ],
    [
      'another Range',
      { headers: { ...BASE.headers, range: 'bytes=0-9' } },
      { headers: { ...BASE.headers, range: 'bytes=0-10' } },
    ],
    ['a Range against none', { headers: { ...BASE.headers, range: 'bytes=0-9' } }, {}],
    [
      'another X-Cloud-Depth',
      { headers: { ...BASE.headers, 'x-cloud-depth': '1' } },
      { headers: { ...BASE.headers, 'x-cloud-depth': '2' } },
    ],
    ['another media type', { headers: { 'content-type': 'text/plain' } }, {}],
    ['another body', { body: Buffer.from('<file><name>b.txt</name></file>') }, {}],
    ['an empty body against one', { body: Buffer.alloc(0) }, {}],
    [
      'another origin in the body, one the server does not have',
      xmlWithOrigin('http://evil.test'),
      xmlWithOrigin('http://127.0.0.1:8080'),
    ],
  ])('different: %s', (_what, a, b) => {
    expect(key({ ...BASE, ...a })).not.toBe(key({ ...BASE, ...b }));
  });

  it.each<[string, MatchOptions, Partial<RequestParts>, Partial<RequestParts>, boolean]>([
    [
      'a header added to the compared ones',
      { ...OPTIONS, headers: ['x-client'] },
      { headers: { 'x-client': 'a' } },
      { headers: { 'x-client': 'b' } },
      false,
    ],
    [
      'a compared header named in any case',
      { ...OPTIONS, headers: ['X-Client'] },
      { headers: { 'x-client': 'a' } },
      { headers: { 'x-client': 'b' } },
      false,
    ],
    [
      'a header left out of the compared ones',
      { ...OPTIONS, headers: [] },
      { headers: { ...BASE.headers, range: 'bytes=0-1' } },
      {},
      true,
    ],
    [
      'a query name ignored by option',
      { ...OPTIONS, ignoreQuery: ['ts'] },
      { query: [['ts', '1']] },
      { query: [['ts', '2']] },
      true,
    ],
    [
      'a redacted query name',
      { ...OPTIONS, redacted: ['login'] },
      { query: [['login', 'ann']] },
      { query: [['login', 'bob']] },
      true,
    ],
    [
      'a redacted header, even when compared',
      { ...OPTIONS, headers: ['x-who'], redacted: ['X-Who'] },
      { headers: { 'x-who': 'a' } },
      { headers: { 'x-who': 'b' } },
      true,
    ],
    [
      'a secret header, even when compared',
      { ...OPTIONS, headers: ['x-cloud-key'] },
      { headers: { 'x-cloud-key': 'a' } },
      { headers: { 'x-cloud-key': 'b' } },
      true,
    ],
  ])('options: %s', (_what, options, a, b, same) => {
    expect(key({ ...BASE, ...a }, options) === key({ ...BASE, ...b }, options)).toBe(same);
  });

  it('a request recorded without its body matches on everything else', () => {
    const full = requestKey(BASE, OPTIONS);
    const other = requestKey({ ...BASE, body: Buffer.from('something else') }, OPTIONS);
    expect(keyString(withoutBody(full))).toBe(keyString(withoutBody(other)));
    expect(withoutBody(full)).toMatchObject({ body: '', bodyBytes: 0 });
  });
});

describe('request key: the differences a miss reports', () => {
  it.each<[string, Partial<RequestParts>, string[]]>([
    ['none for the same request', {}, []],
    ['the method', { method: 'POST' }, ['method POST (recorded PUT)']],
    ['the path', { path: '/v2/files/x' }, ['path (recorded /v2/files/abc)']],
    ['the query', { query: [['start', '2']] }, ['query "start=2" (recorded "start=0")']],
    [
      'the media type',
      { headers: { 'content-type': 'text/xml' } },
      ['content type "text/xml" (recorded "application/vnd.csp.file-info+xml")'],
    ],
    ['the body, by size', { body: Buffer.from('x') }, [`body of 1 bytes differs (recorded ${BASE.body.length} bytes)`]],
    [
      'a header present on one side only',
      { headers: { ...BASE.headers, depth: '1' } },
      ['header depth: "1" (recorded absent)'],
    ],
  ])('%s', (_what, got, lines) => {
    expect(differences(requestKey({ ...BASE, ...got }, OPTIONS), requestKey(BASE, OPTIONS))).toEqual(lines);
  });
});

describe('request key: a URL split into path and query pairs', () => {
  it.each<[string, { path: string; query: Array<[string, string]> }]>([
    ['/v2', { path: '/v2', query: [] }],
    ['/v2?', { path: '/v2', query: [] }],
    [
      '/a?x=1&y',
      {
        path: '/a',
        query: [
          ['x', '1'],
          ['y', ''],
        ],
      },
    ],
    [
      '/a?x=1&x=2',
      {
        path: '/a',
        query: [
          ['x', '1'],
          ['x', '2'],
        ],
      },
    ],
    [
      '/a?q=a+b%20c&e=%3D',
      {
        path: '/a',
        query: [
          ['q', 'a b c'],
          ['e', '='],
        ],
      },
    ],
    ['/a?x=1?y=2', { path: '/a', query: [['x', '1?y=2']] }],
  ])('%s', (url, parts) => {
    expect(splitUrl(url)).toEqual(parts);
  });
});
