import { describe, expect, it } from 'vitest';
import { parseIfHeader, submittedTokens, type IfList } from '../../../src/dav/if-header.js';
import { HttpError } from '../../../src/http/errors.js';

const T1 = 'opaquelocktoken:f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
const T2 = 'opaquelocktoken:e71d4fae-5dec-22d6-fea5-00a0c91e6be4';

describe('If header (RFC 4918 10.4): the lists it reads', () => {
  it.each<[string, string, IfList[]]>([
    ['one untagged token', `(<${T1}>)`, [{ resource: undefined, conditions: [{ not: false, token: T1 }] }]],
    [
      'a token and an etag in one list (both must hold)',
      `(<${T1}> ["I am an ETag"])`,
      [
        {
          resource: undefined,
          conditions: [
            { not: false, token: T1 },
            { not: false, etag: '"I am an ETag"' },
          ],
        },
      ],
    ],
    [
      'two untagged lists (either may hold)',
      `(<${T1}>) (<${T2}>)`,
      [
        { resource: undefined, conditions: [{ not: false, token: T1 }] },
        { resource: undefined, conditions: [{ not: false, token: T2 }] },
      ],
    ],
    [
      'Not, in any case, before a token',
      `(NOT <${T1}>) (not <DAV:no-lock>)`,
      [
        { resource: undefined, conditions: [{ not: true, token: T1 }] },
        { resource: undefined, conditions: [{ not: true, token: 'DAV:no-lock' }] },
      ],
    ],
    [
      'Not before an etag, with no space before "<"',
      `(Not["x"]<${T1}>)`,
      [
        {
          resource: undefined,
          conditions: [
            { not: true, etag: '"x"' },
            { not: false, token: T1 },
          ],
        },
      ],
    ],
    ['a weak etag, trimmed', '([ W/"abc" ])', [{ resource: undefined, conditions: [{ not: false, etag: 'W/"abc"' }] }]],
    [
      'a tagged list: the resource applies to it',
      `<http://www.example.com/specs/> (<${T1}>)`,
      [{ resource: 'http://www.example.com/specs/', conditions: [{ not: false, token: T1 }] }],
    ],
    [
      'a resource tag covers every list up to the next tag',
      `<http://a.test/x> (<${T1}>) (["e"]) </y> (Not <${T2}>)`,
      [
        { resource: 'http://a.test/x', conditions: [{ not: false, token: T1 }] },
        { resource: 'http://a.test/x', conditions: [{ not: false, etag: '"e"' }] },
        { resource: '/y', conditions: [{ not: true, token: T2 }] },
      ],
    ],
    [
      'tabs, newlines and no spaces at all between parts',
      `\t(<${T1}>)\r\n  (<${T2}>)`,
      [
        { resource: undefined, conditions: [{ not: false, token: T1 }] },
        { resource: undefined, conditions: [{ not: false, token: T2 }] },
      ],
    ],
  ])('%s', (_what, header, lists) => {
    expect(parseIfHeader(header)).toEqual(lists);
  });
});

describe('If header: malformed input is a 400, never a guess', () => {
  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['a bare token without a list', `<${T1}>`],
    ['an empty list', '()'],
    ['an unclosed list', `(<${T1}>`],
    ['an unclosed token', `(<${T1})`],
    ['an unclosed etag', '(["abc")'],
    ['a bare word in a list', '(foo)'],
    ['Not with nothing after it', '(Not)'],
    ['a word that starts with Not', `(Nothing <${T1}>)`],
    ['text outside any list', `(<${T1}>) x`],
    ['a tag after untagged lists (the two forms do not mix)', `(<${T1}>) <http://a.test/x> (<${T2}>)`],
    ['a closing parenthesis alone', ')'],
    ['a token with no angle brackets', `(${T1})`],
    ['a resource tag with no list after it', `<http://a.test/x> (<${T1}>) <http://a.test/y>`],
    ['two resource tags in a row', `<http://a.test/x> <http://a.test/y> (<${T1}>)`],
  ])('%s: %j', (_what, header) => {
    let thrown: unknown;
    try {
      parseIfHeader(header);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(400);
    expect((thrown as HttpError).message).toContain('malformed If header');
  });
});

describe('If header: the tokens a client submits', () => {
  it.each<[string, string, string[]]>([
    ['every positive token, once', `(<${T1}>) (<${T1}> ["e"]) (<${T2}>)`, [T1, T2]],
    ['a negated token is not submitted', `(Not <${T1}>) (<${T2}>)`, [T2]],
    ['etags are not tokens', '(["e"])', []],
    ['tokens of tagged lists count too', `<http://a.test/x> (<${T1}>) </y> (Not <${T2}>)`, [T1]],
  ])('%s', (_what, header, tokens) => {
    expect([...submittedTokens(parseIfHeader(header))].sort()).toEqual([...tokens].sort());
  });
});
