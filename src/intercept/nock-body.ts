/**
 * nock hands a reply function the request body as a string: UTF-8 when the bytes survive a UTF-8
 * round trip, else hex (and JSON bodies parsed). This recovers the bytes.
 */
export function requestBodyFromNock(body: unknown): Buffer {
  if (body === undefined || body === null || body === '') return Buffer.alloc(0);
  if (typeof body !== 'string') return Buffer.from(JSON.stringify(body), 'utf8');
  if (/^(?:[0-9a-f]{2})+$/.test(body)) {
    const bytes = Buffer.from(body, 'hex');
    // nock used hex only for bytes that are not UTF-8-representable.
    if (!bytes.equals(Buffer.from(bytes.toString('utf8'), 'utf8'))) return bytes;
  }
  return Buffer.from(body, 'utf8');
}
