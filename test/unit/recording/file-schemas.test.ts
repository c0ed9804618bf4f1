import { describe, expect, it } from 'vitest';
import { schemaCheck } from '../../../src/recording/file-schemas.js';

const exchangeProblem = schemaCheck('recording.schema.json');
const entryProblem = schemaCheck('har-entry.schema.json');

const HASH = 'ab'.repeat(32);

const exchange = (patch: Record<string, unknown>, request = {}, response = {}) => ({
  id: 1,
  request: { method: 'GET', path: '/v2', query: [], headers: {}, ...request },
  response: { status: 200, headers: {}, ...response },
  ...patch,
});

describe('a recorded exchange is checked against recordings/schemas/recording.schema.json, naming the field', () => {
  it('a well-formed exchange, with a body of each form, passes', () => {
    expect(exchangeProblem(exchange({}), 'exchanges[0]')).toBeUndefined();
    for (const body of [{ text: 'x' }, { base64: 'AA==' }, { file: '1-response.bin', bytes: 3, sha256: HASH }])
      expect(exchangeProblem(exchange({}, {}, { body }), '')).toBeUndefined();
  });

  it.each([
    ['an array', [], 'exchanges[3]: must be a JSON object'],
    ['no id', { ...exchange({}), id: undefined }, 'exchanges[3].id: is required'],
    ['an id of 1e20', exchange({ id: 1e20 }), 'exchanges[3].id: must be a safe integer'],
    ['an id of 1.5', exchange({ id: 1.5 }), 'exchanges[3].id: must be a safe integer'],
    ['no request', exchange({ request: undefined }), 'exchanges[3].request: is required'],
    ['a request that is a string', exchange({ request: 'GET /' }), 'exchanges[3].request: must be an object'],
    [
      'a method with a space',
      exchange({}, { method: 'GET /x HTTP/1.1' }),
      'exchanges[3].request.method: must be an HTTP token',
    ],
    ['a method that is a number', exchange({}, { method: 7 }), 'exchanges[3].request.method: must be an HTTP token'],
    [
      'a path with CRLF',
      exchange({}, { path: '/v2\r\nHost: x' }),
      'exchanges[3].request.path: must be a path starting with / without spaces or control characters',
    ],
    [
      'a path not starting with /',
      exchange({}, { path: 'v2' }),
      'exchanges[3].request.path: must be a path starting with / without spaces or control characters',
    ],
    [
      'a status of 1e20',
      exchange({}, {}, { status: 1e20 }),
      'exchanges[3].response.status: must be an integer from 200 to 599 (a final answer: an interim 1xx is never recorded)',
    ],
    [
      'a status of 99',
      exchange({}, {}, { status: 99 }),
      'exchanges[3].response.status: must be an integer from 200 to 599 (a final answer: an interim 1xx is never recorded)',
    ],
    [
      'an interim status (101: a replay would leave its client waiting)',
      exchange({}, {}, { status: 101 }),
      'exchanges[3].response.status: must be an integer from 200 to 599 (a final answer: an interim 1xx is never recorded)',
    ],
    [
      'a response header value with CR LF (every replay of it would fail)',
      exchange({}, {}, { headers: { 'x-a': 'a\r\nset-cookie: x=1' } }),
      'exchanges[3].response.headers.x-a: must be a string without control characters (CR, LF, NUL), or a list of such strings',
    ],
    [
      'a sidecar hash that is not 64 hex digits',
      exchange({}, {}, { body: { file: 'a.bin', bytes: 1, sha256: 'zz' } }),
      'exchanges[3].response.body: must be { text }, { base64 } or { file, bytes, sha256 }',
    ],
    [
      'a 9 MB header name with a terminal escape: cut to 40 characters and escaped',
      exchange({}, { headers: { [`\u001b[31m${'n'.repeat(9_000_000)}`]: 'v' } }),
      `exchanges[3].request.headers."\\u001b[31m${'n'.repeat(35)}…": is not allowed: must be a map of lower-case names (HTTP tokens) to a string, or to a list of strings when repeated`,
    ],
    [
      'a bad value under a 1 MB header name: the name in the field is cut',
      exchange({}, {}, { headers: { ['n'.repeat(1_000_000)]: 5 } }),
      `exchanges[3].response.headers.${JSON.stringify(`${'n'.repeat(40)}…`)}: must be a string without control characters (CR, LF, NUL), or a list of such strings`,
    ],
    ['no status', exchange({}, {}, { status: undefined }), 'exchanges[3].response.status: is required'],
    [
      'a header name with a colon',
      exchange({}, { headers: { 'x:y': 'z' } }),
      'exchanges[3].request.headers.x:y: is not allowed: must be a map of lower-case names (HTTP tokens) to a string, or to a list of strings when repeated',
    ],
    [
      'a header value that is a number',
      exchange({}, {}, { headers: { 'x-a': 1 } }),
      'exchanges[3].response.headers.x-a: must be a string without control characters (CR, LF, NUL), or a list of such strings',
    ],
    [
      'headers that are a list',
      exchange({}, { headers: [['a', 'b']] }),
      'exchanges[3].request.headers: must be a map of lower-case names (HTTP tokens) to a string, or to a list of strings when repeated',
    ],
    [
      'a query of three-item pairs',
      exchange({}, { query: [['a', 'b', 'c']] }),
      'exchanges[3].request.query[0]: must NOT have more than 2 items',
    ],
    [
      'a query that is a string',
      exchange({}, { query: 'a=b' }),
      'exchanges[3].request.query: must be a list of [name, value] pairs, in the order sent',
    ],
    [
      'a body of another shape',
      exchange({}, {}, { body: { path: '/etc/passwd' } }),
      'exchanges[3].response.body: must be { text }, { base64 } or { file, bytes, sha256 }',
    ],
    [
      'a sidecar of -1 bytes',
      exchange({}, {}, { body: { file: 'a.bin', bytes: -1, sha256: HASH } }),
      'exchanges[3].response.body: must be { text }, { base64 } or { file, bytes, sha256 }',
    ],
    [
      'a user that is not a string',
      exchange({ user: { name: 'x' } }),
      "exchanges[3].user: must be a string (the client's Basic login, never its password)",
    ],
  ])('%s', (_what, value, message) => {
    expect(exchangeProblem(value, 'exchanges[3]')).toBe(message);
  });

  it('a field named __proto__ is an ordinary unknown field, and the exchange still passes', () => {
    expect(
      exchangeProblem(
        JSON.parse('{"id":1,"__proto__":{"x":1},"request":{"method":"GET","path":"/"},"response":{"status":200}}'),
        '',
      ),
    ).toBeUndefined();
  });
});

describe('a HAR entry is checked against recordings/schemas/har-entry.schema.json, naming the field', () => {
  const entry = (request = {}, response = {}) => ({
    request: { method: 'GET', url: 'https://x.test/v2', headers: [], ...request },
    response: { status: 200, headers: [], ...response },
  });

  it('a well-formed entry, with an HTTP/2 pseudo-header, passes', () => {
    expect(entryProblem(entry({ headers: [{ name: ':path', value: '/v2' }] }), 'log.entries[0]')).toBeUndefined();
  });

  it.each([
    ['a number', 5, 'log.entries[2]: must be an object'],
    ['no URL', entry({ url: undefined }), 'log.entries[2].request.url: is required'],
    ['a status that is text', entry({}, { status: '200' }), 'log.entries[2].response.status: must be a number'],
    [
      'a header name with a space',
      entry({ headers: [{ name: 'X A', value: 'b' }] }),
      'log.entries[2].request.headers[0].name: must be an HTTP token (or an HTTP/2 pseudo-header such as ":path", left out on import)',
    ],
    [
      'a header without a value',
      entry({}, { headers: [{ name: 'x' }] }),
      'log.entries[2].response.headers[0].value: is required',
    ],
    [
      'a header value with a NUL',
      entry({}, { headers: [{ name: 'x', value: 'a\u0000b' }] }),
      'log.entries[2].response.headers[0].value: must be a string without control characters other than tab',
    ],
    [
      'content text that is a number',
      entry({}, { content: { text: 5 } }),
      'log.entries[2].response.content.text: must be a string',
    ],
    [
      'postData text that is a list',
      entry({ postData: { text: [] } }),
      'log.entries[2].request.postData.text: must be a string',
    ],
  ])('%s', (_what, value, message) => {
    expect(entryProblem(value, 'log.entries[2]')).toBe(message);
  });
});
