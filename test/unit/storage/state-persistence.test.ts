import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import { logFileOf } from '../../../src/storage/log-file.js';
import {
  applyChangeSet,
  StorageError,
  type ChangeSet,
  type StatePersistence,
} from '../../../src/storage/persistence.js';
import type { NodeRecord, StateData } from '../../../src/storage/schema.js';
import { stateDocumentOf } from '../../../src/storage/state-maps.js';
import {
  emptyPlainState,
  openStatePersistence,
  readDurableState,
  type StatePersistenceOptions,
} from '../../../src/storage/state-log.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const node = (id: string, name: string, parentId: string | null = null, owner = 'alice'): NodeRecord =>
  nodeRecord({ id, kind: parentId ? 'file' : 'container', owner, name, parentId });
const userChange = (login: string, rootId = `root-${login}`): ChangeSet => ({
  users: [{ login, user: { rootId } }],
  nodes: [node(rootId, '/', null, login)],
});
const fileChange = (i: number): ChangeSet => ({ nodes: [node(`f${i}`, `file-${i}.txt`, 'root-alice')] });
const plain = (state: StateData): unknown => JSON.parse(JSON.stringify(state));

/** A caller like the domain: commit, then apply to its own memory; the persistence snapshots that memory. */
class Caller {
  memory: StateData = emptyPlainState();
  readonly persistence: StatePersistence;
  constructor(file: string | undefined, extra: Partial<StatePersistenceOptions> = {}) {
    this.persistence = openStatePersistence(file, { snapshot: () => this.memory, ...extra });
  }
  async load(): Promise<string[]> {
    const { state, notes } = await this.persistence.load();
    this.memory = stateDocumentOf(state);
    return notes;
  }
  async commit(change: ChangeSet): Promise<void> {
    await this.persistence.commit([change]);
    applyChangeSet(this.memory, change);
  }
}

describe.each(['memory', 'file'] as const)('state persistence contract (%s)', (kind) => {
  const tmp = useTempDir('state-log');
  const open: Caller[] = [];
  const caller = (extra: Partial<StatePersistenceOptions> = {}): Caller => {
    const c = new Caller(kind === 'file' ? join(tmp.path, 'state.json') : undefined, extra);
    open.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of open.splice(0)) await c.persistence.close();
  });

  it('loads an empty state with no notes, commits, and keeps prototype-like logins as plain data', async () => {
    const c = caller();
    expect(await c.load()).toEqual([]);
    expect(plain(c.memory)).toEqual({ schema: 1, users: {}, nodes: {} });
    for (const login of ['alice', 'constructor', '__proto__', 'toString']) await c.commit(userChange(login));
    expect(Object.keys(c.memory.users)).toEqual(['alice', 'constructor', '__proto__', 'toString']);
  });

  it('applies a replace whole, and commits after it on top', async () => {
    const c = caller();
    await c.load();
    await c.commit(userChange('alice'));
    await c.commit(fileChange(1));
    const fresh = emptyPlainState();
    applyChangeSet(fresh, userChange('bob'));
    await c.persistence.replace(fresh);
    c.memory = fresh;
    await c.commit(userChange('carol'));
    expect(Object.keys(c.memory.users)).toEqual(['bob', 'carol']);
  });
});

describe('state persistence in a file (snapshot + log)', () => {
  const tmp = useTempDir('state-log');
  const open: Caller[] = [];
  const file = (): string => join(tmp.path, 'state.json');
  const caller = (extra: Partial<StatePersistenceOptions> = {}): Caller => {
    const c = new Caller(file(), extra);
    open.push(c);
    return c;
  };
  const reopen = async (): Promise<StateData> => {
    const c = caller();
    await c.load();
    return c.memory;
  };
  afterEach(async () => {
    for (const c of open.splice(0)) await c.persistence.close();
  });

  it('creates the state file at the first start and logs each commit as one JSON line before it resolves', async () => {
    const c = caller();
    await c.load();
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ schema: 1, logSeq: 0, users: {}, nodes: {} });
    await c.commit(userChange('alice'));
    await c.commit(fileChange(1));
    const lines = (await readFile(logFileOf(file()), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual([1, 2]);
    expect(JSON.parse(lines[1]!)).toEqual({ seq: 2, ...fileChange(1) });
    expect(plain((await readDurableState(file()))!.state)).toEqual(plain(c.memory));
  });

  it('round-trips through a clean close: one snapshot holds everything, the log is gone', async () => {
    const c = caller();
    await c.load();
    for (const login of ['alice', 'constructor', '__proto__']) await c.commit(userChange(login));
    await c.commit({ ...fileChange(1), removed: [] });
    await c.commit({ removed: ['f1'] });
    const expected = plain(c.memory);
    await c.persistence.close();
    open.splice(0);
    expect(existsSync(logFileOf(file()))).toBe(false);
    expect(existsSync(`${file()}.lock`)).toBe(false);
    const onDisk = JSON.parse(await readFile(file(), 'utf8'));
    expect(onDisk.logSeq).toBe(5);
    expect(Object.keys(onDisk.users)).toEqual(['alice', 'constructor', '__proto__']);
    expect(plain(await reopen())).toEqual(expected);
  });

  it('writes a group of change sets with one write and one fsync, resolving after that fsync', async () => {
    let syncs = 0;
    let writes = 0;
    const c = caller({
      logIo: {
        write: async (fh, data) => {
          writes++;
          await fh.write(data);
        },
        sync: async (fh) => {
          await fh.datasync();
          syncs++;
        },
      },
    });
    await c.load();
    await c.commit(userChange('alice'));
    syncs = 0;
    writes = 0;
    let syncedWhenAnswered = -1;
    await c.persistence
      .commit(Array.from({ length: 50 }, (_, i) => fileChange(i)))
      .then(() => (syncedWhenAnswered = syncs));
    expect({ writes, syncs, syncedWhenAnswered }).toEqual({ writes: 1, syncs: 1, syncedWhenAnswered: 1 });
    const durable = (await readDurableState(file()))!;
    expect(durable.seq).toBe(51);
    expect(Object.keys(durable.state.nodes)).toHaveLength(51);
  });

  it('writes groups sent together one after another, in order, each with its own fsync', async () => {
    const c = caller();
    await c.load();
    await c.commit(userChange('alice'));
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => c.persistence.commit([fileChange(i)]).then(() => order.push(i))),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const lines = (await readFile(logFileOf(file()), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('drops a torn last record with a note, and appends the next commit after the last whole one', async () => {
    const c = caller();
    await c.load();
    await c.commit(userChange('alice'));
    await c.commit(fileChange(1));
    await c.persistence.close();
    open.splice(0);
    // A crash mid-append: the log has whole records and part of one more.
    await writeFile(
      logFileOf(file()),
      `${JSON.stringify({ seq: 3, ...fileChange(2) })}\n{"seq":4,"nodes":[{"id":"f3","na`,
    );
    const again = caller();
    const notes = await again.load();
    expect(notes).toEqual([expect.stringMatching(/dropped the torn last record of .*state\.json\.log \(\d+ bytes\)/)]);
    expect(Object.keys(again.memory.nodes).sort()).toEqual(['f1', 'f2', 'root-alice']);
    await again.commit(fileChange(5));
    expect(
      (await readFile(logFileOf(file()), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).seq),
    ).toEqual([3, 4]);
    expect(Object.keys((await readDurableState(file()))!.state.nodes).sort()).toEqual(['f1', 'f2', 'f5', 'root-alice']);
  });

  it('refuses a corrupt record in the middle of the log, naming the file and line, and releases the lock', async () => {
    const c = caller();
    await c.load();
    await c.commit(userChange('alice'));
    await c.persistence.close();
    open.splice(0);
    await writeFile(
      logFileOf(file()),
      `${JSON.stringify({ seq: 1, ...fileChange(1) })}\nnot json\n${JSON.stringify({ seq: 2, ...fileChange(2) })}\n`,
    );
    await expect(caller().load()).rejects.toThrow(`state log ${logFileOf(file())} is corrupt at line 2`);
    open.splice(0);
    await writeFile(
      logFileOf(file()),
      `${JSON.stringify({ seq: 1, ...fileChange(1) })}\n${JSON.stringify({ seq: 3, ...fileChange(3) })}\n`,
    );
    await expect(caller().load()).rejects.toThrow(/line 2 has record 3 where 2 was expected/);
    open.splice(0);
    // Past 2^53 two records share one number: refused as a record without a whole-number seq.
    const unsafe = `${JSON.stringify({ seq: 1, ...fileChange(1) })}\n{"seq":1e20,${JSON.stringify(fileChange(2)).slice(1)}\n`;
    await writeFile(logFileOf(file()), unsafe);
    await expect(caller().load()).rejects.toThrow(`state log ${logFileOf(file())} is corrupt at line 2`);
    open.splice(0);
    expect(await readFile(logFileOf(file()), 'utf8')).toBe(unsafe);
    expect(existsSync(`${file()}.lock`)).toBe(false);
  });

  it('refuses a foreign or broken state file without overwriting it', async () => {
    for (const text of ['{"not":"ours"}', '[1,2]', '{"schema":1,"users":{},"nodes":{},"logSeq":-1}', '{ broken']) {
      await writeFile(file(), text);
      await expect(caller().load()).rejects.toThrow(`state file ${file()}`);
      open.splice(0);
      expect(await readFile(file(), 'utf8')).toBe(text);
    }
  });

  it('refuses a logSeq past 2^53 (1e20): the log records after it would share one number and be skipped on replay', async () => {
    const text = '{"schema":1,"users":{},"nodes":{},"logSeq":1e20}';
    await writeFile(file(), text);
    await expect(caller().load()).rejects.toThrow('logSeq is 100000000000000000000, expected a whole number');
    open.splice(0);
    expect(await readFile(file(), 'utf8')).toBe(text);
  });

  it('compacts while commits go on: every acknowledged commit durable at every moment, the log bounded', async () => {
    const c = caller({ compactAfterBytes: 4000 });
    await c.load();
    await c.commit(userChange('alice'));
    const lanes = Array.from({ length: 8 }, async (_, lane) => {
      for (let i = 0; i < 60; i++) {
        await c.commit(fileChange(lane * 1000 + i));
        if (i % 20 === 0) {
          const acknowledged = Object.keys(c.memory.nodes);
          const durable = (await readDurableState(file()))!.state.nodes;
          expect(acknowledged.filter((id) => !durable[id])).toEqual([]);
        }
      }
    });
    await Promise.all(lanes);
    const durable = (await readDurableState(file()))!;
    expect(plain(durable.state)).toEqual(plain(c.memory));
    expect(durable.seq).toBe(481);
    expect(JSON.parse(await readFile(file(), 'utf8')).logSeq).toBeGreaterThan(0);
    expect((await stat(logFileOf(file()))).size).toBeLessThan(20_000);
    const expected = plain(c.memory);
    await c.persistence.close();
    open.splice(0);
    expect(plain(await reopen())).toEqual(expected);
  });

  it('makes a replace all or nothing: later commits on top, earlier records superseded', async () => {
    const c = caller();
    await c.load();
    await c.commit(userChange('alice'));
    await c.commit(fileChange(1));
    const fresh = emptyPlainState();
    applyChangeSet(fresh, userChange('bob'));
    await c.persistence.replace(fresh);
    c.memory = fresh;
    expect((await stat(logFileOf(file()))).size).toBe(0);
    await c.commit(userChange('carol'));
    expect(Object.keys((await readDurableState(file()))!.state.users)).toEqual(['bob', 'carol']);
  });

  it('refuses a second opener of the same file, naming the file and the pid; free again after close', async () => {
    const c = caller();
    await c.load();
    await expect(caller().load()).rejects.toThrow(
      `state file ${file()} is in use by this process (${process.pid}) (lock file ${file()}.lock)`,
    );
    open.pop();
    expect((await readFile(`${file()}.lock`, 'utf8')).trim()).toBe(String(process.pid));
    await c.persistence.close();
    open.splice(0);
    await reopen();
  });

  it('refuses a lock held by another live process and takes over one whose process is gone', async () => {
    await writeFile(`${file()}.lock`, `${process.ppid}\n`);
    await expect(caller().load()).rejects.toThrow(`is in use by process ${process.ppid}`);
    open.splice(0);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    await writeFile(`${file()}.lock`, `${dead}\n`);
    const c = caller();
    expect(await c.load()).toEqual([
      expect.stringContaining(`took over the stale lock ${file()}.lock of process ${dead}`),
    ]);
  });

  it('on a full disk rejects with StorageError full, leaves nothing of the change, and works once space is back', async () => {
    let full = false;
    const c = caller({
      logIo: {
        async write(fh, data) {
          if (!full) return void (await fh.write(data));
          await fh.write(data.subarray(0, 10)); // part of it reached the file
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        sync: (fh) => fh.datasync(),
      },
    });
    await c.load();
    await c.commit(userChange('alice'));
    const before = await readFile(logFileOf(file()));
    full = true;
    const refused = await c.commit(fileChange(1)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StorageError);
    expect(refused).toMatchObject({ kind: 'full', message: expect.stringContaining('the disk is full') });
    expect(await readFile(logFileOf(file()))).toEqual(before);
    expect(c.memory.nodes['f1']).toBeUndefined();
    full = false;
    await c.commit(fileChange(2));
    expect(Object.keys((await readDurableState(file()))!.state.nodes).sort()).toEqual(['f2', 'root-alice']);
  });

  it('reports any other write failure as StorageError io', async () => {
    const c = caller({
      logIo: {
        write: async (fh, data) => void (await fh.write(data)),
        sync: async () => {
          throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
        },
      },
    });
    await c.load();
    await expect(c.commit(userChange('alice'))).rejects.toMatchObject({ name: 'StorageError', kind: 'io' });
    expect((await stat(logFileOf(file()))).size).toBe(0);
  });
});
