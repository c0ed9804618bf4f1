// A vitest test file as a vitest user writes it (ES module): copied into a scratch project as
// vitest-tests/mock.test.mjs, with csp-mock and vitest installed (jest and nock beside them).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMock } from 'csp-mock';

const auth = { Authorization: 'Basic ' + btoa('demo:demo'), 'X-Client-Specification': '2' };
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
