// The README's test-suite example, verbatim: if this file fails, the README is wrong.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startMock, type RunningMock } from 'csp-mock';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
}); // port 0, demo tree, user demo:demo
beforeEach(async () => {
  await mock.reset();
}); // every test starts from the seed
afterAll(async () => {
  await mock.close();
});

test('my client lists the demo tree', async () => {
  const auth = { Authorization: 'Basic ' + btoa('demo:demo'), 'X-Client-Specification': '2' };
  const entry = await fetch(`${mock.url}/v2`, { headers: auth });
  expect((await entry.text()).startsWith('<cloud')).toBe(true);
  const readme = await fetch(`${mock.url}/dav/Documents/readme.txt`, { headers: auth });
  expect(await readme.text()).toContain('Welcome, demo');
});
