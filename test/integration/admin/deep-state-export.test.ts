import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { deepJson } from '../../../src/admin/deep-json.js';
import type { MockApp } from '../../../src/index.js';
import { chainDepth, deepChainMock } from '../../helpers/deep-trees.js';

const DEPTH = 12_000;

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('GET /__admin/state of a very deep tree (built and written without recursion)', () => {
  it(`exports a ${DEPTH.toLocaleString('en')}-deep chain as a seed and as the state view`, async () => {
    mock = await deepChainMock(DEPTH);
    const seed = await request(mock.app).get('/__admin/state?format=seed').expect(200);
    expect(seed.type).toBe('application/json');
    const exported = chainDepth(seed.body.seed.trees.demo);
    expect(exported.depth).toBe(DEPTH + 1);
    expect(exported.last).toEqual({ file: 'bottom.txt', mimeType: 'application/octet-stream', text: 'deep' });

    const view = await request(mock.app).get('/__admin/state').expect(200);
    const shown = chainDepth(view.body.users.demo.tree);
    expect(shown.depth).toBe(DEPTH + 1);
    expect(shown.last).toMatchObject({ file: 'bottom.txt', bytes: 4 });
  });

  it('writes what JSON.stringify writes for plain data', () => {
    const value = {
      a: [1, 'two', null, true, { b: undefined, c: 'x"y\n', d: [] }],
      e: {},
      [`__proto__`]: 'plain',
      f: undefined,
    };
    expect(deepJson(value)).toBe(JSON.stringify(value));
    expect(deepJson([undefined, () => 1])).toBe(JSON.stringify([undefined, () => 1]));
    expect(deepJson('s')).toBe('"s"');
  });
});
