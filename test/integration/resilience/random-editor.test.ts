import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockApp, type RandomEditor } from '../../../src/index.js';

const opened: MockApp[] = [];
afterEach(async () => {
  for (const mock of opened.splice(0)) await mock.close();
});

/** Resolves with the second device's journal entries once there are `count` of them (no timer: journal events). */
function madeBy(mock: MockApp, count: number): Promise<JournalEntry[]> {
  return new Promise((resolve) => {
    const check = (): void => {
      const made = mock.requests().filter((e) => e.device === 'second');
      if (made.length < count) return;
      stop();
      resolve(made);
    };
    const stop = mock.journal.subscribe((event) => {
      if (event.type === 'updated') check();
    });
    check();
  });
}

/** Starts a mock with a random editor and resolves with its `limit` changes' journal entries. */
async function editsOf(editor: RandomEditor & { limit: number }): Promise<JournalEntry[]> {
  const mock = await createApp({ scenario: { randomEditor: editor } });
  opened.push(mock);
  return madeBy(mock, editor.limit);
}

const described = (entries: JournalEntry[]) =>
  entries.map((e) => `${e.method} ${e.path} ${e.change?.detail ?? ''} ${e.status}`.trim());

describe('the random editor: a second device editing at a rate, repeatably for a seed', () => {
  it('the same seed makes the same changes; another seed makes others', async () => {
    const editor = { everyMs: 10, seed: 42, limit: 12 };
    const first = await editsOf(editor);
    const second = await editsOf(editor);
    expect(first).toHaveLength(12);
    expect(described(second)).toEqual(described(first));
    expect(first.every((e) => e.change?.trigger.startsWith('random editor (seed 42'))).toBe(true);
    const other = await editsOf({ ...editor, seed: 7 });
    expect(described(other)).not.toEqual(described(first));
  });

  it('keeps to its kinds and its folder, and stops at its limit', async () => {
    const entries = await editsOf({
      everyMs: 10,
      seed: 3,
      limit: 5,
      kinds: ['rename', 'metadata'],
      under: '/Documents',
    });
    expect(entries).toHaveLength(5);
    for (const e of entries) {
      expect(['RENAME', 'METADATA']).toContain(e.method);
      expect(e.path.startsWith('/Documents/')).toBe(true);
      expect(e.committed).toBe(true);
    }
  });

  it('a reset starts it afresh from its seed: the same changes again, from the seed state', async () => {
    const mock = await createApp({ scenario: { randomEditor: { everyMs: 10, seed: 9, limit: 6 } } });
    opened.push(mock);
    const first = await madeBy(mock, 6);
    await mock.reset();
    const again = await madeBy(mock, 6);
    expect(described(again)).toEqual(described(first));
  });

  it('refuses a random editor that would edit too fast or too long: everyMs 1, 1e20 or a limit of 1,000,000 are 400s naming the field', async () => {
    const mock = await createApp();
    opened.push(mock);
    for (const [editor, field] of [
      [{ everyMs: 1 }, 'randomEditor.everyMs'],
      [{ everyMs: 1e20 }, 'randomEditor.everyMs'],
      [{ everyMs: 10, limit: 1_000_000 }, 'randomEditor.limit'],
    ] as const) {
      const res = await request(mock.app)
        .put('/__admin/scenario')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'busy', randomEditor: editor }));
      expect(res.status, JSON.stringify(editor)).toBe(400);
      expect(res.text).toContain(field);
    }
    expect((await request(mock.app).get('/__admin/scenario')).body.name).toBe('default');
  });
});
