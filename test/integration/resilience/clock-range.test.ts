// A clock the mock cannot show (past 9999, before 1970, an endless duration) is refused before anything
// moves: over the admin API (400 naming the field), in an inline scenario (the switch is refused whole) and
// in a scenario file (the start stops, naming the file and the field).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp, startMock, type MockApp } from '../../../src/index.js';

const FROZEN = '2025-01-01T00:00:00.000Z';

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const scratch = mkdtempSync(join(tmpdir(), 'csp-mock-clock-range-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const postClock = (app: MockApp['app'], body: unknown) =>
  request(app).post('/__admin/clock').set('Content-Type', 'application/json').send(JSON.stringify(body));

describe('the clock stays within what it can show (1970 to 9999)', () => {
  it('POST /__admin/clock with advance 1e20, a 401-digit duration or a time past 9999 is a 400 naming the field; the clock stays', async () => {
    mock = await createApp({ clock: { frozen: FROZEN } });
    for (const [body, field] of [
      [{ advance: 1e20 }, 'advance'],
      [{ advance: `${'9'.repeat(401)}ms` }, 'advance'],
      [{ advance: '-3000w' }, 'advance'],
      [{ advance: '500000w' }, 'advance'],
      [{ offset: 1e20 }, 'offset'],
      [{ set: '+010000-01-01T00:00:00Z' }, 'set'],
      [{ set: -1 }, 'set'],
      [{ freeze: 8.64e15 }, 'freeze'],
    ] as const) {
      const res = await postClock(mock.app, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.text).toMatch(new RegExp(`^400 ${field}: `));
    }
    const shown = await request(mock.app).get('/__admin/clock').expect(200);
    expect(shown.body).toMatchObject({ now: FROZEN, frozen: true });
    // The edges themselves are times the clock can show.
    expect((await postClock(mock.app, { set: '9999-12-31T23:59:59Z' })).body.now).toBe('9999-12-31T23:59:59.000Z');
    expect((await postClock(mock.app, { set: 0 })).body.now).toBe('1970-01-01T00:00:00.000Z');
  });

  it('an inline scenario with clock.offset 1e20 is a 400 naming clock.offset; scenario, clock and files stay as they were', async () => {
    mock = await createApp({ clock: { frozen: FROZEN } });
    await request(mock.app).put('/dav/kept.txt').auth('demo', 'demo').send('kept').expect(201);
    for (const clock of [{ offset: 1e20 }, { offset: `${'1'.repeat(401)}ms` }, { frozen: 1e20 }]) {
      const res = await request(mock.app)
        .put('/__admin/scenario')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'far', clock }));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/clock\.(offset|frozen)/);
    }
    expect((await request(mock.app).get('/__admin/scenario').expect(200)).body.name).toBe('default');
    expect((await request(mock.app).get('/__admin/clock')).body).toMatchObject({ now: FROZEN, frozen: true });
    await request(mock.app).get('/dav/kept.txt').auth('demo', 'demo').expect(200, 'kept');
    await request(mock.app).propfind('/dav/').auth('demo', 'demo').set('Depth', '1').expect(207);
    await request(mock.app).get('/__admin/requests').expect(200);
  });

  it('a scenario file with such a clock stops the start with a message naming the file and clock.offset', async () => {
    const file = join(scratch, 'far-future.json');
    writeFileSync(file, JSON.stringify({ name: 'far-future', clock: { offset: 1e20 } }));
    const started = startMock({ scenario: file });
    await expect(started).rejects.toThrow(/far-future\.json/);
    await expect(started).rejects.toThrow(/clock\.offset/);
    await expect(started).rejects.not.toThrow(/Invalid time value/);
  });
});
