import { describe, expect, it } from 'vitest';
import { exchange, parseResponse, rawGet, timed, useRunningMock } from './wire-client.js';

describe('fault rules that respond (respond, connection "close")', () => {
  const running = useRunningMock(() => ({ seed: 'empty' }));

  it('answers the declared status, headers and body instead of the service, for the first `times` matches', async () => {
    const mock = await running.start({
      scenario: {
        faults: [
          {
            match: { method: 'GET', path: '/v2/tags' },
            respond: { status: 503, headers: { 'Retry-After': '1' }, body: 'busy' },
            times: 2,
          },
        ],
      },
    });
    for (let i = 0; i < 2; i++) {
      const res = parseResponse((await exchange(mock.port, rawGet('/v2/tags', { Connection: 'close' }))).bytes);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(res.body.toString()).toBe('busy');
    }
    const third = parseResponse((await exchange(mock.port, rawGet('/v2/tags', { Connection: 'close' }))).bytes);
    expect(third.status).toBe(200);
    expect(third.body.toString()).toContain('<tags');
  });

  it('answers before authentication, so a rule fires for a request without credentials', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2' }, respond: { status: 418, body: 'teapot' } }] },
    });
    const res = await fetch(`${mock.url}/v2`);
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('teapot');
  });

  it('waits respond.delayMs before answering', async () => {
    const mock = await running.start({
      scenario: {
        faults: [{ match: { method: 'GET', path: '/v2/tags' }, respond: { status: 503, body: 'later', delayMs: 300 } }],
      },
    });
    const { value, ms } = await timed(() => exchange(mock.port, rawGet('/v2/tags', { Connection: 'close' })));
    expect(parseResponse(value.bytes).status).toBe(503);
    expect(ms).toBeGreaterThanOrEqual(290);
  });

  it('connection "close" sends the whole response with Connection: close, then really closes a keep-alive socket', async () => {
    const mock = await running.start({
      scenario: {
        faults: [
          {
            match: { method: 'GET', path: '/v2/tags' },
            respond: { status: 500, body: 'broken\n' },
            connection: 'close',
          },
        ],
      },
    });
    // Two pipelined keep-alive requests: only the first is answered, then the server closes.
    const result = await exchange(mock.port, rawGet('/v2/tags') + rawGet('/v2/account'));
    expect(result.ended).toBe('end');
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(500);
    expect(res.headers['connection']).toBe('close');
    expect(res.body.toString()).toBe('broken\n');
    expect(result.bytes.toString('latin1').match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('connection "close" alone lets the real response through, then closes the socket', async () => {
    const mock = await running.start({
      scenario: { faults: [{ match: { method: 'GET', path: '/v2/account' }, connection: 'close' }] },
    });
    const result = await exchange(mock.port, rawGet('/v2/account'));
    expect(result.ended).toBe('end');
    const res = parseResponse(result.bytes);
    expect(res.status).toBe(200);
    expect(res.headers['connection']).toBe('close');
    expect(res.body.toString()).toContain('<account-info');
  });

  it('without a fault, a keep-alive socket stays open after the response', async () => {
    const mock = await running.start({ scenario: 'default' });
    const result = await exchange(mock.port, rawGet('/v2/account'), 400);
    expect(result.ended).toBe('open');
    expect(parseResponse(result.bytes).status).toBe(200);
  });
});
