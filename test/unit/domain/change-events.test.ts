import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueSpec } from '../../../src/domain/change-events/notification-queues.js';
import { nextQueueRecord, type QueueRecord } from '../../../src/storage/queue-records.js';
import { seedFromRecordedTree } from '../../../src/recording/seed-from-recording.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../../helpers/stores.js';

const ALL: QueueSpec = { events: [], scope: null, metadata: { cdmi_queue_type: 'cdmi_notification_queue' } };

describe.each(STORE_KINDS)('the events a change appends to the queues (%s store)', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(kind);
    await t.store.notificationQueues.create('alice', 'q', ALL);
  });
  afterEach(async () => {
    await t.dispose();
  });
  const events = (): string[] =>
    t.store.notificationQueues
      .get('alice', 'q')
      .values.map((v) => `${v.event.event} ${[...v.event.parentPath, v.event.name].join('/')}`);

  it('a folder copied, recycled, restored and purged is one event each (none for the purge of what was recycled)', async () => {
    const root = t.store.root('alice').id;
    const docs = await t.store.createContainer('alice', root, 'Docs');
    await t.store.createFile('alice', docs.id, { name: 'a.txt' }, Buffer.from('a'));
    const copy = await t.store.copy('alice', docs.id, root, 'Copy');
    await t.store.recycleBin.add('alice', copy.id);
    await t.store.recycleBin.restore('alice', copy.id);
    await t.store.recycleBin.add('alice', copy.id);
    await t.store.recycleBin.purge('alice', copy.id);
    expect(events()).toEqual([
      'cdmi_create_complete Docs',
      'cdmi_create_complete Docs/a.txt',
      'cdmi_create_complete Copy',
      'cdmi_delete Copy',
      'cdmi_create_complete Copy',
      'cdmi_delete Copy',
    ]);
  });

  it('a move that replaces an object reads as the old one gone, then the moved one renamed', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createFile('alice', root, { name: 'a.txt' }, Buffer.from('a'));
    const b = await t.store.createFile('alice', root, { name: 'b.txt' }, Buffer.from('b'));
    await t.store.update('alice', a.id, { name: 'b.txt' }, { replaceId: b.id });
    expect(events().slice(2)).toEqual(['cdmi_delete b.txt', 'cdmi_rename b.txt']);
  });

  it('metadata and content are modifications; a time alone (an access) is nothing', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createFile('alice', root, { name: 'a.txt' }, Buffer.from('a'));
    t.store.touchAccessed(a);
    await t.store.annotations.setMetadata('alice', a.id, 'k', 'v');
    await t.store.writeContent('alice', a.id, Buffer.from('bb'));
    expect(events()).toEqual([
      'cdmi_create_complete a.txt',
      'cdmi_modify_complete a.txt',
      'cdmi_modify_complete a.txt',
    ]);
    const last = t.store.notificationQueues.get('alice', 'q').values[2]!.event;
    expect(last).toMatchObject({ kind: 'file', bytes: 2, user: 'alice', parentId: root });
  });

  it('a tag added or removed is a modification; adding a tag the object has is nothing', async () => {
    const root = t.store.root('alice').id;
    const a = await t.store.createFile('alice', root, { name: 'a.txt' }, Buffer.from('a'));
    await t.store.annotations.addTag('alice', a.id, 'red');
    await t.store.annotations.addTag('alice', a.id, 'red');
    await t.store.annotations.removeTag('alice', a.id, 'red');
    expect(events()).toEqual([
      'cdmi_create_complete a.txt',
      'cdmi_modify_complete a.txt',
      'cdmi_modify_complete a.txt',
    ]);
  });

  it('a refused change appends nothing: its events are undone with it', async () => {
    const root = t.store.root('alice').id;
    t.faults.failing = 'full';
    await expect(t.store.createContainer('alice', root, 'Docs')).rejects.toThrow();
    t.faults.failing = undefined;
    expect(events()).toEqual([]);
    await t.store.createContainer('alice', root, 'Docs');
    expect(t.store.notificationQueues.get('alice', 'q').values.map((v) => v.seq)).toEqual([0]);
  });

  it("a tree seeded from a recording replaces the user's tree: one event per top object gone or come", async () => {
    const root = t.store.root('alice').id;
    await t.store.createContainer('alice', root, 'Old');
    await seedFromRecordedTree(t.store, {
      roots: new Map([['alice', root]]),
      objects: new Map([
        [
          'D1',
          {
            id: 'D1',
            kind: 'container',
            user: 'alice',
            name: 'New',
            parentId: root,
            tags: [],
            metadata: {},
            deleted: false,
          },
        ],
        [
          'F1',
          {
            id: 'F1',
            kind: 'file',
            user: 'alice',
            name: 'n.txt',
            parentId: 'D1',
            content: Buffer.from('n'),
            tags: [],
            metadata: {},
            deleted: false,
          },
        ],
      ]),
    });
    expect(events()).toEqual(['cdmi_create_complete Old', 'cdmi_delete Old', 'cdmi_create_complete New']);
  });

  it("bob's changes reach only bob's queues", async () => {
    await t.store.createContainer('bob', t.store.root('bob').id, 'Bobs');
    expect(events()).toEqual([]);
  });
});

describe('queue records', () => {
  const queue = (values: number[], limit = 3): QueueRecord => ({
    owner: 'o',
    name: 'n',
    id: 'I',
    created: 0,
    events: [],
    scope: null,
    metadata: {},
    limit,
    next: values.length ? values[values.length - 1]! + 1 : 0,
    dropped: 0,
    values: values.map((seq) => ({ seq, event: { seq } as never })),
  });
  const seqs = (q: QueueRecord | undefined): number[] => q!.values.map((v) => v.seq);

  it('an append applied twice (a log record replayed over a snapshot that has it) adds nothing the second time', () => {
    const once = nextQueueRecord(queue([0, 1]), { key: 'k', append: [{ seq: 2, event: {} as never }] });
    const twice = nextQueueRecord(once, { key: 'k', append: [{ seq: 2, event: {} as never }] });
    expect(seqs(twice)).toEqual([0, 1, 2]);
    expect(twice!.next).toBe(3);
  });

  it('past the limit the oldest values go and are counted', () => {
    const next = nextQueueRecord(queue([0, 1, 2]), {
      key: 'k',
      append: [3, 4].map((seq) => ({ seq, event: {} as never })),
    });
    expect(seqs(next)).toEqual([2, 3, 4]);
    expect(next!.dropped).toBe(2);
  });

  it('take removes the values numbered below it, and is a bound (applying it twice is the same)', () => {
    const once = nextQueueRecord(queue([0, 1, 2]), { key: 'k', take: 2 });
    expect(seqs(once)).toEqual([2]);
    expect(nextQueueRecord(once, { key: 'k', take: 2 })).toBe(once);
  });
});
