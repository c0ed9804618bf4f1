import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { ByteReplacer, boundaryOf, keptHeaders, normaliseHeaders } from '../../../src/recording/normalise.js';
import { REDACTED, redactXmlElements, redactedNames } from '../../../src/http/redaction.js';

describe('normalisation and redaction at record time', () => {
  it('stores absolute addresses in Location, Content-Location and WebDAV Destination on the {{baseUrl}} token', () => {
    const origin = 'http://127.0.0.1:37171';
    const out = normaliseHeaders(
      {
        destination: `${origin}/dav/b.txt`,
        location: `${origin}/v2/files/x`,
        'content-location': `${origin}/v2/containers/y`,
        overwrite: 'F',
      },
      [origin],
    );
    expect(out).toEqual({
      destination: '{{baseUrl}}/dav/b.txt',
      location: '{{baseUrl}}/v2/files/x',
      'content-location': '{{baseUrl}}/v2/containers/y',
      overwrite: 'F',
    });
  });

  it('replaces a multipart boundary in a stream even when it is split across chunks', async () => {
    const body = Buffer.from('--abc123\r\nhello\r\n--abc123--\r\n');
    const oneByteChunks = Readable.from([...body].map((b) => Buffer.from([b])));
    const out = await buffer(oneByteChunks.pipe(new ByteReplacer('abc123', 'csp-mock-boundary')));
    expect(out.toString()).toBe('--csp-mock-boundary\r\nhello\r\n--csp-mock-boundary--\r\n');
  });

  it('reads quoted and unquoted boundaries, and only from multipart types', () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary=xyz')).toBe('xyz');
    expect(boundaryOf('text/plain; boundary=xyz')).toBeUndefined();
  });

  it('drops framing and date headers but keeps Connection: close, which the observed 500s send', () => {
    const kept = keptHeaders(
      {
        'Content-Length': '5',
        'Transfer-Encoding': 'chunked',
        Date: 'x',
        Connection: 'close',
        'Content-Type': 'text/plain',
        'X-Mock-Session': 's',
      },
      true,
    );
    expect(kept).toEqual({ connection: 'close', 'content-type': 'text/plain' });
  });

  it('always redacts Authorization, cookies, X-Cloud-Key, X-Auth-Token, X-Api-Key, plus --redact names, and the account S3 key in bodies', () => {
    expect(redactedNames(['X-Sig'])).toEqual([
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'x-cloud-key',
      'x-auth-token',
      'x-api-key',
      'x-admin-token',
      'auth',
      'pass',
      'pwd',
      'sig',
      'x-sig',
    ]);
    const account =
      '<account-info><username>demo</username><s3><authid>demo-s3</authid><authkey>SECRET</authkey></s3></account-info>';
    expect(redactXmlElements(account, [], REDACTED)).toBe(account.replace('SECRET', '[redacted]'));
  });
});
