import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { compileMatch } from '../../../src/scenarios/request-match.js';
import type { FaultMatch } from '../../../src/scenarios/types.js';

/** The parts of a request that matching reads, as express presents them (lower-case header names). */
function requestOf(parts: {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  query?: Record<string, unknown>;
}): Request {
  return { method: 'GET', path: '/v2', headers: {}, query: {}, ...parts } as unknown as Request;
}

const GET_FILE = { method: 'GET', path: '/v2/files/abc' };

describe('fault rule match: every given condition must hold', () => {
  it.each<[string, FaultMatch, Parameters<typeof requestOf>[0], boolean]>([
    ['the method and path', { method: 'GET', path: '/v2/files/*' }, GET_FILE, true],
    ['a method in any case', { method: 'get', path: '/v2/**' }, GET_FILE, true],
    ['another method', { method: 'PUT', path: '/v2/**' }, GET_FILE, false],
    ['one of a list of methods', { method: ['PUT', 'GET'], path: '/v2/**' }, GET_FILE, true],
    ['none of a list of methods', { method: ['PUT', 'POST'], path: '/v2/**' }, GET_FILE, false],
    ['"*" for any method', { method: '*', path: '/v2/**' }, { ...GET_FILE, method: 'PROPFIND' }, true],
    ['"*" inside a list', { method: ['PUT', '*'], path: '/v2/**' }, { ...GET_FILE, method: 'MKCOL' }, true],
    ['the path decides even when the method matches', { method: 'GET', path: '/dav/**' }, GET_FILE, false],
    [
      'a header equal to a value (name in any case)',
      { method: '*', path: '/**', headers: { 'X-Cloud-Depth': '1' } },
      { headers: { 'x-cloud-depth': '1' } },
      true,
    ],
    [
      'a header with another value',
      { method: '*', path: '/**', headers: { 'x-cloud-depth': '1' } },
      { headers: { 'x-cloud-depth': '2' } },
      false,
    ],
    [
      'a header compared by its exact value (case matters in values)',
      { method: '*', path: '/**', headers: { 'x-mode': 'Fast' } },
      { headers: { 'x-mode': 'fast' } },
      false,
    ],
    [
      'a header that must be present',
      { method: '*', path: '/**', headers: { range: true } },
      { headers: { range: '' } },
      true,
    ],
    ['a header that must be present, absent', { method: '*', path: '/**', headers: { range: true } }, {}, false],
    ['a header that must be absent', { method: '*', path: '/**', headers: { range: false } }, {}, true],
    [
      'a header that must be absent, present',
      { method: '*', path: '/**', headers: { range: false } },
      { headers: { range: 'bytes=0-1' } },
      false,
    ],
    [
      'a repeated header: its first value',
      { method: '*', path: '/**', headers: { 'x-tag': 'a' } },
      { headers: { 'x-tag': ['a', 'b'] } },
      true,
    ],
    [
      'a query parameter equal to a value',
      { method: '*', path: '/**', query: { start: '1' } },
      { query: { start: '1', count: '5' } },
      true,
    ],
    [
      'a query parameter with another value',
      { method: '*', path: '/**', query: { start: '1' } },
      { query: { start: '10' } },
      false,
    ],
    [
      'a query parameter, repeated: its first value',
      { method: '*', path: '/**', query: { n: '1' } },
      { query: { n: ['1', '2'] } },
      true,
    ],
    ['a query parameter that must be present', { method: '*', path: '/**', query: { n: true } }, {}, false],
    ['a query parameter that must be absent', { method: '*', path: '/**', query: { n: false } }, {}, true],
    [
      'a query value that is not text (a[b]=1) counts as absent',
      { method: '*', path: '/**', query: { a: true } },
      { query: { a: { b: '1' } } },
      false,
    ],
    [
      'the media type, parameters and case ignored',
      { method: '*', path: '/**', contentType: 'multipart/form-data' },
      { headers: { 'content-type': 'Multipart/Form-Data; boundary=xyz' } },
      true,
    ],
    [
      'another media type',
      { method: '*', path: '/**', contentType: 'multipart/form-data' },
      { headers: { 'content-type': 'application/octet-stream' } },
      false,
    ],
    [
      '"type/*" against a subtype',
      { method: '*', path: '/**', contentType: 'text/*' },
      { headers: { 'content-type': 'text/plain;charset=UTF-8' } },
      true,
    ],
    [
      '"type/*" against another type',
      { method: '*', path: '/**', contentType: 'text/*' },
      { headers: { 'content-type': 'application/xml' } },
      false,
    ],
    [
      '"*/*" against any media type',
      { method: '*', path: '/**', contentType: '*/*' },
      { headers: { 'content-type': 'image/png' } },
      true,
    ],
    ['a media type condition with no Content-Type sent', { method: '*', path: '/**', contentType: '*/*' }, {}, false],
    [
      'all conditions together, one failing',
      { method: 'POST', path: '/v2/containers/*/contents', headers: { 'x-a': true }, contentType: 'text/*' },
      { method: 'POST', path: '/v2/containers/r/contents', headers: { 'x-a': '1', 'content-type': 'image/png' } },
      false,
    ],
  ])('%s', (_what, match, request, expected) => {
    expect(compileMatch(match)(requestOf(request))).toBe(expected);
  });
});
