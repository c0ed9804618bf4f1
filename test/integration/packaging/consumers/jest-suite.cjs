// A jest test file as a jest user writes it (CommonJS, default jest config): copied into a scratch
// project as jest-tests/mock.test.js, with csp-mock, jest, nock and vitest installed. It requires csp-mock's CommonJS build.
const https = require('node:https');
const { startMock, interceptCloud } = require('csp-mock');

const auth = { Authorization: 'Basic ' + Buffer.from('demo:demo').toString('base64'), 'X-Client-Specification': '2' };
let mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

test('starts, answers a request, resets', async () => {
  const res = await fetch(`${mock.url}/v2/account`, { headers: auth });
  expect(res.status).toBe(200);
  expect((await mock.requests()).map((e) => e.path)).toEqual(['/v2/account']);
  await mock.reset();
  expect(await mock.requests()).toEqual([]);
});

test('interceptCloud (nock installed) serves fetch and https, and keeps a text of hex digits as text', async () => {
  const cloud = await interceptCloud('https://cloud.example.test');
  try {
    const put = await fetch('https://cloud.example.test/dav/Documents/cafe.txt', {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: 'cafe',
    });
    expect(put.status).toBe(201);
    const text = await new Promise((resolve, reject) => {
      https
        .get('https://cloud.example.test/dav/Documents/cafe.txt', { headers: auth }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    expect(text).toBe('cafe');
  } finally {
    await cloud.restore();
  }
});
