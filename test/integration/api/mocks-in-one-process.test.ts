import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../../src/index.js';

const DEMO = { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`, 'X-Client-Specification': '2' };

const opened: MockApp[] = [];

async function mock(options: Parameters<typeof createApp>[0]): Promise<MockApp> {
  const made = await createApp(options);
  opened.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((m) => m.close()));
});

// Every mock of a process runs its requests through one shared router of steps: each step must reach the
// mock the request reached, never another one made before or after it.
describe('mocks of one process each run their own steps', () => {
  it("one mock's Host names, CORS, request log and admin token are not another's, made before or after it", async () => {
    const lines: string[] = [];
    const open = await mock({ allowedHosts: ['one.example'], log: (line) => lines.push(line) });
    const guarded = await mock({ cors: false, adminToken: 'secret-token' });
    const later = await mock({ scenario: 'tag-objects-500' });

    await request(open.app).get('/v2').set(DEMO).set('Host', 'one.example').expect(200);
    await request(guarded.app).get('/v2').set(DEMO).set('Host', 'one.example').expect(403);
    expect(lines.some((line) => line.includes('/v2'))).toBe(true);

    const page = { Origin: 'https://elsewhere.example' };
    await request(open.app).get('/v2').set(DEMO).set(page).expect(403);
    await request(guarded.app).get('/v2').set(DEMO).set(page).expect(200);

    await request(guarded.app).get('/__admin/scenario').expect(401);
    await request(open.app).get('/__admin/scenario').expect(200);
    await request(guarded.app).get('/__admin/scenario').set('Authorization', 'Bearer secret-token').expect(200);

    await request(later.app).get('/v2/tags/x/objects').set(DEMO).expect(500);
    await request(guarded.app).get('/v2/tags/x/objects').set(DEMO).expect(404);
    expect(lines.join('\n'), 'only the mock with a log writes lines').not.toContain('/v2/tags');
    expect(later.requests().map((r) => r.path)).toEqual(['/v2/tags/x/objects']);
    expect(guarded.requests().map((r) => r.path)).toEqual(['/v2', '/v2/tags/x/objects']);
  });
});
