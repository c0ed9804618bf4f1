// The same as commonjs-script.cjs, from an ES module: import loads csp-mock's ES module build.
import { interceptCloud, startMock } from 'csp-mock';

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
