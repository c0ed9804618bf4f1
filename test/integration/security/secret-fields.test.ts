// One rule for secret names, applied to JSON members (nested too), form pairs, query strings and XML
// elements in the journal, the verbose request log and recordings.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { REDACTED, redactBodyText, redactXmlElements } from '../../../src/http/redaction.js';
import { isSecretName } from '../../../src/http/secret-names.js';

/** Field spellings a client sends, each with a value that must never be shown. */
const FIELDS = [
  'access_token',
  'refresh_token',
  'client_secret',
  'apiKey',
  'api_key',
  'API-KEY',
  'accessToken',
  'Refresh-Token',
  'clientSecret',
  'password',
  'PASSWORD',
  'token',
  'pwd',
  'passphrase',
];
const secretOf = (field: string): string => `v-${field.replace(/[^a-z]/gi, '')}-never-shown`;

const jsonBody = (): string =>
  JSON.stringify({
    grant_type: 'refresh',
    ...Object.fromEntries(FIELDS.slice(0, 7).map((f) => [f, secretOf(f)])),
    nested: {
      list: [{ [FIELDS[7]!]: secretOf(FIELDS[7]!), keep: 'visible-1' }],
      [FIELDS[8]!]: { deeper: secretOf(FIELDS[8]!), also: [secretOf(FIELDS[9]!)] },
    },
    ...Object.fromEntries(FIELDS.slice(10).map((f) => [f, secretOf(f)])),
    [FIELDS[9]!]: 12345,
    count: 3,
  });
const formBody = (): string =>
  [
    'grant_type=password',
    'username=alice',
    ...FIELDS.map((f) => `${encodeURIComponent(f)}=${encodeURIComponent(secretOf(f))}`),
  ].join('&');

function expectNoSecret(text: string | undefined, what: string): void {
  expect(text, what).toBeDefined();
  for (const f of FIELDS) expect(text, `${what}: ${f}`).not.toContain(secretOf(f));
}

describe('redaction of secret fields in bodies: one name rule for the journal, the log and recordings', () => {
  let mock: MockApp | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('the one matcher knows access_token, refresh_token, client_secret and apiKey in any case, snake, camel or kebab', () => {
    for (const f of FIELDS) expect(isSecretName(f), f).toBe(true);
    for (const f of ['ACCESS-TOKEN', 'Client_Secret', 'X_API_KEY', 'x-auth-token', 'Refresh_Token'])
      expect(isSecretName(f), f).toBe(true);
    for (const f of ['grant_type', 'username', 'count', 'keep', 'name', 'mime_type', 'tags'])
      expect(isSecretName(f), f).toBe(false);
  });

  it('JSON access_token, refresh_token, client_secret and apiKey (nested too, any value type) are removed from a body text', () => {
    const text = redactBodyText(jsonBody());
    expectNoSecret(text, 'json');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(parsed['access_token']).toBe('[removed]');
    expect(parsed['grant_type']).toBe('refresh');
    expect(parsed['count']).toBe(3);
    expect(JSON.stringify(parsed['nested'])).toContain('visible-1');
    // A body cut short (the journal keeps only its first bytes) is redacted as far as it goes.
    const cut = jsonBody().slice(0, jsonBody().indexOf(secretOf('accessToken')) + 5);
    expect(redactBodyText(cut)).not.toContain(secretOf('accessToken').slice(0, 5));
  });

  it('form-encoded password= and token= (and every secret field) are removed; other pairs stay', () => {
    const text = redactBodyText(formBody());
    expectNoSecret(text, 'form');
    expect(text).toContain('grant_type=password');
    expect(text).toContain('username=alice');
    expect(text).toContain('password=[removed]');
    expect(text).toContain('token=[removed]');
  });

  it('query strings and attributes inside a body, and XML elements with a namespace prefix, are redacted', () => {
    const uriList = `http://x/v2/files/1?token=${secretOf('token')}&n=1\nhttp://x/a?API_KEY=${secretOf('apiKey')}`;
    const text = redactBodyText(uriList);
    expect(text).not.toContain(secretOf('token'));
    expect(text).not.toContain(secretOf('apiKey'));
    expect(text).toContain('n=1');
    const xml = `<a><s3:authkey>${secretOf('token')}</s3:authkey><client_secret kind="x">${secretOf('apiKey')}</client_secret><name>kept</name><login password="${secretOf('pwd')}"/></a>`;
    const redacted = redactBodyText(xml);
    expect(redacted).not.toContain(secretOf('token'));
    expect(redacted).not.toContain(secretOf('apiKey'));
    expect(redacted).not.toContain(secretOf('pwd'));
    expect(redacted).toContain('<name>kept</name>');
    // Recordings use the same rule for the elements they keep.
    expect(redactXmlElements(xml, [], REDACTED)).toContain('<client_secret kind="x">[redacted]</client_secret>');
    expect(redactXmlElements('<refreshToken>r</refreshToken>', [], REDACTED)).toBe(
      '<refreshToken>[redacted]</refreshToken>',
    );
  });

  it('the journal with journalBodies keeps no JSON or form-encoded secret field of a request', async () => {
    mock = await createApp({ journalBodies: 64 * 1024 });
    await request(mock.app)
      .put('/dav/grant.json')
      .auth('demo', 'demo')
      .set('Content-Type', 'application/json')
      .send(jsonBody())
      .expect(201);
    await request(mock.app)
      .put('/dav/grant.form')
      .auth('demo', 'demo')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(formBody())
      .expect(201);
    const [json, form] = mock.requests();
    expectNoSecret(json!.requestBody!.text, 'journal json');
    expect(json!.requestBody!.text).toContain('"access_token":"[removed]"');
    expectNoSecret(form!.requestBody!.text, 'journal form');
    expect(form!.requestBody!.text).toContain('password=[removed]');
    // Over HTTP too.
    const listed = await request(mock.app).get('/__admin/requests').expect(200);
    expectNoSecret(JSON.stringify(listed.body), 'admin requests');
    // And the file's content, read back through the journal's response body.
    await request(mock.app).get('/dav/grant.json').auth('demo', 'demo').expect(200);
    expectNoSecret(mock.requests().at(-1)!.responseBody!.text, 'journal response');
  });

  it('the verbose request log (text and json) keeps no JSON or form-encoded secret field', async () => {
    for (const logFormat of ['text', 'json'] as const) {
      const lines: string[] = [];
      mock = await createApp({ verbose: true, logFormat, log: (l) => lines.push(l) });
      await request(mock.app)
        .put('/dav/grant.json')
        .auth('demo', 'demo')
        .set('Content-Type', 'application/json')
        .send(jsonBody())
        .expect(201);
      await request(mock.app)
        .put('/dav/grant.form')
        .auth('demo', 'demo')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(formBody())
        .expect(201);
      await mock.close();
      mock = undefined;
      const all = lines.join('\n');
      expect(all).toContain('grant.form');
      expectNoSecret(all, `log ${logFormat}`);
      expect(all).toContain('[removed]');
    }
  });
});
