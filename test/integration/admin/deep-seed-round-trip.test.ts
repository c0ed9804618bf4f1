import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';
import { chainDepth, deepChainMock } from '../../helpers/deep-trees.js';

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('the documented seed round trip for deep trees (GET ?format=seed, then PUT /__admin/scenario)', () => {
  it('a 2,000-level tree exported as a seed and sent back is taken whole (the schema check does not overflow the stack)', async () => {
    mock = await deepChainMock(2000);
    const exported = (await request(mock.app).get('/__admin/state?format=seed').expect(200)).body as {
      seed: unknown;
    };
    await request(mock.app)
      .put('/__admin/scenario')
      .send({ name: 'deep', ...exported })
      .expect(200);
    const view = await request(mock.app).get('/__admin/state').expect(200);
    const shown = chainDepth(view.body.users.demo.tree);
    expect(shown.depth).toBe(2001);
    expect(shown.last).toMatchObject({ file: 'bottom.txt', bytes: 4 });
  });

  it('a 20,000-level seed is taken too (checked and loaded without recursion)', { timeout: 60_000 }, async () => {
    mock = await deepChainMock(20_000);
    // As text both ways: the test's own JSON tools recurse, the mock must not.
    const exported = (await request(mock.app).get('/__admin/state?format=seed').expect(200)).text;
    expect(exported.startsWith('{')).toBe(true);
    await request(mock.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/json')
      .send(`{"name":"deeper",${exported.slice(1)}`)
      .expect(200);
    const view = await request(mock.app).get('/__admin/state').expect(200);
    expect(chainDepth(view.body.users.demo.tree).depth).toBe(20_001);
  });

  it('a deep seed node with a bad field is refused with a 400 naming its place, not a 500', async () => {
    mock = await createApp({ seed: 'empty' });
    let node = `{"file":"bottom.txt","colour":"red"}`;
    for (let i = 0; i < 5000; i++) node = `{"container":"c${i}","children":[${node}]}`;
    const answer = await request(mock.app)
      .put('/__admin/scenario')
      .set('Content-Type', 'application/json')
      .send(`{"name":"bad","seed":{"tree":[${node}]}}`);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`seed.tree[0]${'.children[0]'.repeat(5000)}.colour`);
    expect(answer.text).toContain('is not a known field');
  });
});
