import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import type { NodeRecord, StateData } from '../../../src/domain/model.js';
import { FAILPOINTS_ENV } from '../../../src/storage/failpoints.js';
import { logFileOf, replayLogBytes } from '../../../src/storage/log-file.js';
import { applyChangeSet, type ChangeSet } from '../../../src/storage/persistence.js';
import { readDurableState } from '../../../src/storage/state-log.js';
import { BASIC_DEMO, killServersAfterEach, serve, type ServeProcess } from '../../helpers/cli.js';
import { openTestStore } from '../../helpers/stores.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** The log's size now (0 before its first record). */
const logBytes = (dataFile: string): Promise<number> =>
  stat(logFileOf(dataFile)).then(
    (s) => s.size,
    () => 0,
  );

const lastLine = async (dataFile: string): Promise<unknown> => {
  const lines = (await readFile(logFileOf(dataFile), 'utf8')).trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
};

const record = (id: string, tags: string[]): NodeRecord => nodeRecord({ id, owner: 'alice', tags });

const stateWith = (tags: string[]): StateData => ({
  schema: 1,
  users: Object.assign(Object.create(null) as StateData['users'], { alice: { rootId: 'root' } }),
  nodes: Object.assign(Object.create(null) as StateData['nodes'], {
    root: { ...record('root', []), kind: 'container', parentId: null },
    f: record('f', tags),
  }),
});

const logOf = (...records: Array<ChangeSet & { seq: number }>): Buffer =>
  Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));

describe('a tag change is logged as the tag alone, whatever the number of tags', () => {
  it('adding a tag appends the same small record to an object with one tag and to one with 5,000', async () => {
    const t = await openTestStore('file');
    try {
      const built = t.store.builder();
      built.addUser('alice');
      const root = built.root('alice').id;
      const few = built.addFile('alice', root, { name: 'few', tags: ['t0'] });
      const many = built.addFile('alice', root, {
        name: 'many',
        tags: Array.from({ length: 5000 }, (_, i) => `t${i}`),
      });
      await built.writeBlobs();
      await t.store.replaceState(built);
      const file = t.dataFile!;

      const before = await logBytes(file);
      await t.store.annotations.addTag('alice', few.id, 'added');
      const afterFew = await logBytes(file);
      expect(await lastLine(file)).toEqual({ seq: expect.any(Number), tags: [{ id: few.id, add: 'added' }] });
      await t.store.annotations.addTag('alice', many.id, 'added');
      const afterMany = await logBytes(file);
      expect(await lastLine(file)).toEqual({ seq: expect.any(Number), tags: [{ id: many.id, add: 'added' }] });

      // Same id length, same tag, same number of seq digits: the same number of bytes.
      expect(afterMany - afterFew).toBe(afterFew - before);
      expect(afterMany - afterFew).toBeLessThan(100);
      expect(t.store.get('alice', many.id).tags).toHaveLength(5001);

      await t.store.annotations.removeTag('alice', many.id, 't17');
      expect(await lastLine(file)).toEqual({ seq: expect.any(Number), tags: [{ id: many.id, remove: 't17' }] });
      expect((await logBytes(file)) - afterMany).toBeLessThan(100);

      const reopened = await t.reopen();
      const tags = reopened.get('alice', many.id).tags;
      expect(tags).toHaveLength(5000);
      expect(tags[tags.length - 1]).toBe('added');
      expect(tags).not.toContain('t17');
      expect(reopened.get('alice', few.id).tags).toEqual(['t0', 'added']);
      expect(
        reopened.annotations
          .taggedWith('alice', 'added')
          .map((n) => n.name)
          .sort(),
      ).toEqual(['few', 'many']);
    } finally {
      await t.dispose();
    }
  });

  it('2,000 tags added one by one to one object: each add leaves the records held before it as they were', async () => {
    const t = await openTestStore('memory');
    try {
      const root = t.store.root('alice').id;
      const file = await t.store.createFile('alice', root, { name: 'f' });
      const held: Array<{ tags: string[]; count: number }> = [];
      for (let i = 0; i < 2000; i++) {
        await t.store.annotations.addTag('alice', file.id, `tag${i}`);
        if (i % 500 === 0) {
          const snapshot = t.store.snapshot();
          held.push({ tags: snapshot.nodes[file.id]!.tags, count: i + 1 });
        }
      }
      // A snapshot took the lists it holds as they were: later adds do not reach them.
      for (const { tags, count } of held) expect(tags).toHaveLength(count);
      // Between snapshots an add appends to the node's list: no copy of the 2,000 tags.
      const list = t.store.get('alice', file.id).tags;
      await t.store.annotations.addTag('alice', file.id, 'one more');
      expect(t.store.get('alice', file.id).tags).toBe(list);
      expect(list).toHaveLength(2001);
      expect(t.store.annotations.taggedWith('alice', 'one more').map((n) => n.id)).toEqual([file.id]);
    } finally {
      await t.dispose();
    }
  });
});

describe('tag changes in a group that fails are undone exactly', () => {
  it('tag adds, a rename and a removal staged behind a failing group leave the tags, the name and the index as before', async () => {
    const t = await openTestStore('memory');
    try {
      const root = t.store.root('alice').id;
      const file = await t.store.createFile('alice', root, { name: 'f' });
      await t.store.annotations.addTag('alice', file.id, 'a');
      const before = t.store.snapshot();
      let open!: () => void;
      t.faults.hold = new Promise<void>((resolve) => (open = resolve));
      const staged = [
        t.store.annotations.addTag('alice', file.id, 'b'),
        t.store.update('alice', file.id, { name: 'renamed' }),
        t.store.annotations.addTag('alice', file.id, 'c'),
        t.store.annotations.removeTag('alice', file.id, 'a'),
        t.store.annotations.addTag('alice', file.id, 'd'),
      ].map((p) =>
        p.then(
          () => 'fulfilled',
          (err: Error) => err.name,
        ),
      );
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(t.store.get('alice', file.id)).toMatchObject({ name: 'renamed', tags: ['b', 'c', 'd'] });
      expect(t.store.snapshot(), 'a snapshot holds only what is durable').toEqual(before);
      t.faults.failing = 'full';
      t.faults.hold = undefined;
      open();
      expect(await Promise.all(staged)).toEqual(Array(5).fill('StorageError'));
      expect(t.store.get('alice', file.id)).toMatchObject({ name: 'f', tags: ['a'] });
      expect(t.store.snapshot()).toEqual(before);
      expect(t.store.annotations.tagsInUse('alice')).toEqual(['a']);

      t.faults.failing = undefined;
      await t.store.annotations.addTag('alice', file.id, 'e');
      expect(t.store.get('alice', file.id).tags).toEqual(['a', 'e']);
      expect(t.store.annotations.tagsInUse('alice')).toEqual(['a', 'e']);
    } finally {
      await t.dispose();
    }
  });
});

describe('replaying a tag record is harmless when its change is already there', () => {
  it('a log that adds a tag the snapshot already holds, twice, leaves it once; a removal twice removes it once', () => {
    const state = stateWith(['a', 'b']);
    const log = logOf(
      { seq: 5, tags: [{ id: 'f', add: 'b' }] },
      { seq: 6, tags: [{ id: 'f', add: 'c' }] },
      { seq: 7, tags: [{ id: 'f', add: 'c' }] },
      { seq: 8, tags: [{ id: 'f', remove: 'a' }] },
      { seq: 9, tags: [{ id: 'f', remove: 'a' }] },
      { seq: 10, tags: [{ id: 'gone', add: 'x' }] },
    );
    const replay = replayLogBytes('state.json.log', log, state, 4);
    expect(replay).toMatchObject({ seq: 10, applied: 6, tornBytes: 0 });
    expect(state.nodes['f']!.tags).toEqual(['b', 'c']);
    expect(state.nodes['gone']).toBeUndefined();
  });

  it('applying the same tag change set twice to a state gives the state of applying it once', () => {
    const once = stateWith(['a']);
    const twice = stateWith(['a']);
    const held = twice.nodes['f']!;
    const change: ChangeSet = { tags: [{ id: 'f', add: 'b' }] };
    applyChangeSet(once, change);
    applyChangeSet(twice, change);
    applyChangeSet(twice, change);
    expect(twice).toEqual(once);
    // The record held before is not changed in place (memory may share it with a snapshot).
    expect(held.tags).toEqual(['a']);
  });

  it('a tag record that is not {id, add} or {id, remove} stops the start with the line named', () => {
    const bad = logOf({ seq: 1, tags: [{ id: 'f', add: 'x', remove: 'y' } as never] });
    expect(() => replayLogBytes('state.json.log', bad, stateWith([]), 0)).toThrow(
      /state log state\.json\.log is corrupt at line 1: a tag change/,
    );
  });
});

describe('a kill after a tag record is synced: the restart replays the tags', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const tmp = useTempDir('tag-log');
  const dataFile = (): string => join(tmp.path, 'state.json');
  const args = (): string[] => ['--empty', '--data', dataFile()];
  const v2 = (server: ServeProcess, path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.url}/v2${path}`, { ...init, headers: { Authorization: BASIC_DEMO, ...init.headers } });

  it('killed at log-synced-before-answer on the third tag add: all three tags are there after a restart', async () => {
    const first = await serve(args());
    const put = await fetch(`${first.url}/dav/tagged.txt`, {
      method: 'PUT',
      body: 'x',
      headers: { Authorization: BASIC_DEMO },
    });
    expect(put.status).toBe(201);
    await first.stop('SIGTERM');
    const id = Object.values((await readDurableState(dataFile()))!.state.nodes).find(
      (n) => n.name === 'tagged.txt',
    )!.id;

    const armed = await serve(args(), { env: { ...process.env, [FAILPOINTS_ENV]: 'log-synced-before-answer:kill@3' } });
    expect((await v2(armed, `/files/${id}/tags/one`, { method: 'PUT' })).status).toBe(204);
    expect((await v2(armed, `/files/${id}/tags/two`, { method: 'PUT' })).status).toBe(204);
    const third = await v2(armed, `/files/${id}/tags/three`, { method: 'PUT' }).then(
      (r) => `answered ${r.status}`,
      () => 'connection broke',
    );
    expect(third).toBe('connection broke');
    expect(await armed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await lastLine(dataFile())).toEqual({ seq: expect.any(Number), tags: [{ id, add: 'three' }] });

    const again = await serve(args());
    const listing = await (await v2(again, `/files/${id}/tags`)).text();
    for (const tag of ['one', 'two', 'three']) expect(listing).toContain(`/tags/${tag}"`);
    expect((await v2(again, '/tags/three/objects')).status).toBe(200);
  });
});
