// A plain CommonJS script (no test runner): starts the mock, sends one request, resets, stops; then
// calls interceptCloud, which (nock not installed) rejects with the line that says how to install it.
const { startMock, interceptCloud } = require('csp-mock');

(async () => {
  const mock = await startMock();
  const res = await fetch(`${mock.url}/v2/account`, {
    headers: { Authorization: 'Basic ' + btoa('demo:demo'), 'X-Client-Specification': '2' },
  });
  console.log('status', res.status);
  console.log('journal', (await mock.requests()).length);
  await mock.reset();
  console.log('after reset', (await mock.requests()).length);
  await mock.close();
  try {
    await interceptCloud('https://cloud.example.test');
    console.log('interceptCloud: no error');
  } catch (err) {
    console.log(`interceptCloud: ${err.message}`);
  }
})();
