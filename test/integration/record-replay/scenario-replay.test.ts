import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createApp, type MockApp } from '../../../src/index.js';
import { EXAMPLE_RECORDING } from './support.js';

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** The root container id the example recording holds (it changes whenever the recording is made again). */
const recordedRootId = /\/v2\/containers\/([\w-]+)/.exec(readFileSync(EXAMPLE_RECORDING, 'utf8').split('\n')[1]!)![1]!;

const get = (app: MockApp, path: string) =>
  request(app.app).get(path).auth('demo', 'demo').set('X-Client-Specification', '2').set('Host', 'replay.test:8080');

describe('a scenario that names a recording switches the mock between emulation and replay', () => {
  it('the built-in replay-example scenario answers from recordings/example-session.jsonl', async () => {
    mock = await createApp({ scenario: 'replay-example', allowedHosts: ['replay.test'] });
    const res = await get(mock, '/v2').expect(200);
    // The recorded root container id, with links rebased onto this server.
    expect(res.text).toContain(`xlink:href="http://replay.test:8080/v2/containers/${recordedRootId}"`);
    const miss = await get(mock, '/v2/containers/not-recorded').expect(404);
    expect(miss.headers['content-type']).toMatch(/^text\/plain/);
    expect(miss.text).toMatch(/GET \/v2\/containers\/not-recorded/);
  });

  it('useScenario switches from replay to the emulator and back, and reset rewinds the replay', async () => {
    mock = await createApp({ scenario: 'replay-example', allowedHosts: ['replay.test'] });
    const replayed = (await get(mock, '/v2')).text;
    await mock.useScenario('default');
    const emulated = (await get(mock, '/v2').expect(200)).text;
    expect(emulated).not.toContain(recordedRootId);
    await get(mock, '/v2/containers/not-recorded').expect(404);
    await mock.useScenario('replay-example');
    expect((await get(mock, '/v2')).text).toBe(replayed);
    await mock.reset();
    expect((await get(mock, '/v2')).text).toBe(replayed);
  });
});
