import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { MAX_DEAD_PROPS, MAX_DEAD_PROP_BYTES } from '../../../src/domain/dead-properties.js';
import { MAX_OWNER_CHARS } from '../../../src/dav/lock.js';
import { MAX_PROPPATCH_ELEMENTS } from '../../../src/dav/proppatch.js';
import { dav, readMultistatus } from '../dav/dav-helpers.js';

const NS = 'http://example.com/ns/';
const patch = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:x="${NS}">${body}</D:propertyupdate>`;
/** A set of `count` properties named p<from>, p<from+1>, ... each holding `value`. */
const setMany = (from: number, count: number, value = 'v'): string =>
  patch(
    `<D:set><D:prop>${Array.from({ length: count }, (_, i) => `<x:p${from + i}>${value}</x:p${from + i}>`).join('')}</D:prop></D:set>`,
  );

describe('dead properties and lock owners are bounded', () => {
  const cloud = useCloud();
  const app = () => cloud.client.app;
  const deadProps = () => Object.keys(cloud.client.mock.store.resolvePath('demo', ['f.txt'])!.deadProps);

  it('PROPPATCHes past the per-resource count answer 507 for the properties set, and store none of them', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(setMany(0, MAX_DEAD_PROPS - 1))
      .expect(207);
    const over = await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(setMany(MAX_DEAD_PROPS, 2).replace('</D:set>', '</D:set><D:remove><D:prop><x:gone/></D:prop></D:remove>'))
      .expect(207);
    const [entry] = readMultistatus(over.text);
    expect(entry!.props[`p${MAX_DEAD_PROPS}`]!.status).toBe(507);
    expect(entry!.props['gone']!.status).toBe(424);
    expect(deadProps()).toHaveLength(MAX_DEAD_PROPS - 1);
    // Replacing or removing what is there still works at the bound.
    await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(setMany(0, 10, 'changed'))
      .expect(207);
    expect(deadProps()).toHaveLength(MAX_DEAD_PROPS - 1);
  });

  it('PROPPATCHes past the per-resource size answer 507', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const big = 'b'.repeat(MAX_DEAD_PROP_BYTES / 4);
    for (let i = 0; i < 3; i++)
      await dav(app(), 'PROPPATCH', '/dav/f.txt')
        .send(setMany(i, 1, big))
        .expect(207);
    const over = await dav(app(), 'PROPPATCH', '/dav/f.txt')
      .send(setMany(3, 1, big))
      .expect(207);
    expect(readMultistatus(over.text)[0]!.props['p3']!.status).toBe(507);
    expect(deadProps()).toHaveLength(3);
  });

  it('a 90,000-property PROPPATCH is refused with 413 before it is parsed, and stores nothing', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const empties = Array.from({ length: 90_000 }, (_, i) => `<x:${i.toString(36)}/>`).join('');
    const body = patch(`<D:set><D:prop>${empties}</D:prop></D:set>`);
    expect(body.length).toBeLessThan(1024 * 1024); // under the body limit: the count refuses it
    const res = await dav(app(), 'PROPPATCH', '/dav/f.txt').send(body).expect(413);
    expect(res.text).toContain(`more than ${MAX_PROPPATCH_ELEMENTS} elements`);
    expect(deadProps()).toEqual([]);
  });

  it('a LOCK whose owner is longer than the bound is refused with 400 naming the owner; a usual owner is kept', async () => {
    await dav(app(), 'PUT', '/dav/f.txt').send('x').expect(201);
    const lockBody = (owner: string) =>
      `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>` +
      `<D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
    const huge = '<D:href>x</D:href>'.repeat(90_000 / 2);
    const refused = await dav(app(), 'LOCK', '/dav/f.txt').send(lockBody(huge)).expect(400);
    expect(refused.text).toContain(`lock owner is longer than ${MAX_OWNER_CHARS}`);
    expect(cloud.client.mock.store.locks.covering(cloud.client.mock.store.resolvePath('demo', ['f.txt'])!.id)).toEqual(
      [],
    );
    const granted = await dav(app(), 'LOCK', '/dav/f.txt').send(lockBody('<D:href>mailto:me@example.com</D:href>'));
    expect(granted.status).toBe(200);
    expect(granted.text).toContain('mailto:me@example.com');
  });
});
