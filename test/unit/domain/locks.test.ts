import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { LockTable, MAX_LOCKS, type LockDepth, type LockScope, type WriteIntent } from '../../../src/domain/locks.js';
import { newNode } from '../../../src/domain/node-records.js';
import { Tree } from '../../../src/domain/tree.js';
import type { NodeRecord, StateData } from '../../../src/domain/model.js';

/**
 * R (the root)
 * ├── A/          a container
 * │   ├── F       a file
 * │   └── B/      a container
 * │       └── H   a file
 * └── G           a file
 */
function tree(recycled: string[] = []): Tree {
  const nodes: NodeRecord[] = [
    newNode('demo', 'container', '', null, 0, 'R'),
    newNode('demo', 'container', 'A', 'R', 0, 'A'),
    newNode('demo', 'file', 'f.txt', 'A', 0, 'F'),
    newNode('demo', 'container', 'B', 'A', 0, 'B'),
    newNode('demo', 'file', 'h.txt', 'B', 0, 'H'),
    newNode('demo', 'file', 'g.txt', 'R', 0, 'G'),
  ].map((n) => (recycled.includes(n.id) ? { ...n, recycled: 1 } : n));
  const state: StateData = { schema: 1, users: { demo: { rootId: 'R' } }, nodes: {} };
  for (const n of nodes) state.nodes[n.id] = n;
  return new Tree(state);
}

/** A lock to take: on a node, `scope` and `depth` as in LOCK, for `timeout` seconds (null: Infinite). */
interface Held {
  at: string;
  scope: LockScope;
  depth: LockDepth;
  timeout?: number | null;
}
const ex = (at: string, depth: LockDepth = '0'): Held => ({ at, scope: 'exclusive', depth });
const sh = (at: string, depth: LockDepth = '0'): Held => ({ at, scope: 'shared', depth });

/** A table over the tree above, with a clock the test moves, and the locks taken (their tokens by position). */
function tableWith(held: Held[], recycled: string[] = []) {
  let now = 1_000_000;
  const table = new LockTable(tree(recycled), () => now);
  const tokens = held.map((h) => {
    table.assertCanLock(h.at, 'R', h);
    return table.add({
      rootId: h.at,
      owner: 'demo',
      scope: h.scope,
      depth: h.depth,
      ownerXml: '',
      timeout: h.timeout === undefined ? 600 : h.timeout,
    }).token;
  });
  return { table, tokens, advance: (seconds: number) => (now += seconds * 1000) };
}

function codeOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}

describe('lock table: which new locks conflict (RFC 4918 6.1, 7)', () => {
  it.each<[string, Held[], Held | { newMemberOf: string; scope: LockScope; depth: LockDepth }, string]>([
    ['exclusive then shared on one file', [ex('F')], sh('F'), 'locked'],
    ['exclusive then exclusive on one file', [ex('F')], ex('F'), 'locked'],
    ['shared then exclusive on one file', [sh('F')], ex('F'), 'locked'],
    ['shared then shared on one file', [sh('F')], sh('F'), 'ok'],
    ['a depth-0 lock on a container leaves its members free', [ex('A')], ex('F'), 'ok'],
    ['a depth-infinity lock covers its members', [ex('A', 'infinity')], sh('F'), 'locked'],
    ['a depth-infinity lock covers members of members', [ex('A', 'infinity')], ex('H'), 'locked'],
    ['a depth-infinity lock leaves its siblings free', [ex('A', 'infinity')], ex('G'), 'ok'],
    ['an infinity lock above a locked member conflicts', [ex('H')], ex('A', 'infinity'), 'locked'],
    ['a depth-0 lock above a locked member does not', [ex('H')], ex('A'), 'ok'],
    ['shared infinity over shared members is fine', [sh('H'), sh('F')], sh('R', 'infinity'), 'ok'],
    [
      'a new member of an infinity-locked container',
      [ex('R', 'infinity')],
      { newMemberOf: 'A', scope: 'shared', depth: '0' },
      'locked',
    ],
    [
      'a new member of a depth-0 locked container',
      [ex('A')],
      { newMemberOf: 'A', scope: 'exclusive', depth: '0' },
      'ok',
    ],
    ['an expired lock is gone', [{ ...ex('F'), timeout: 0 }], ex('F'), 'ok'],
  ])('%s: %s', (_what, held, wanted, outcome) => {
    const { table } = tableWith(held);
    const at = 'at' in wanted ? wanted.at : undefined;
    const parent = 'newMemberOf' in wanted ? wanted.newMemberOf : 'R';
    expect(codeOf(() => table.assertCanLock(at, parent, wanted))).toBe(outcome);
  });

  it('a lock on a node that went to the recycle bin no longer holds', () => {
    const { table } = tableWith([ex('F')]);
    expect(codeOf(() => table.assertCanLock('F', 'A', ex('F')))).toBe('locked');
    const afterDelete = new LockTable(tree(['A']), () => 1_000_000);
    afterDelete.add({ rootId: 'F', owner: 'demo', scope: 'exclusive', depth: '0', ownerXml: '', timeout: 600 });
    expect(afterDelete.covering('F')).toEqual([]);
  });
});

describe('lock table: which writes need which tokens', () => {
  // Tokens are named by the position of the lock in `held`: 0 is the first lock's token.
  it.each<[string, Held[], WriteIntent, number[], string]>([
    ['no locks: anything goes', [], { content: 'F', remove: 'A' }, [], 'ok'],
    ['a locked file, no token', [ex('F')], { content: 'F' }, [], 'locked'],
    ['a locked file, its token', [ex('F')], { content: 'F' }, [0], 'ok'],
    ['a locked file, the token of another lock', [ex('F'), ex('G')], { content: 'F' }, [1], 'locked'],
    ['a file under an infinity lock, that lock’s token', [ex('A', 'infinity')], { content: 'H' }, [0], 'ok'],
    ['a file under a depth-0 lock of its container', [ex('A')], { content: 'F' }, [], 'ok'],
    ['shared locks: any one of their tokens', [sh('F'), sh('F')], { content: 'F' }, [1], 'ok'],
    ['a new member in a depth-0 locked container', [ex('A')], { members: ['A'] }, [], 'locked'],
    ['a new member in a depth-0 locked container, its token', [ex('A')], { members: ['A'] }, [0], 'ok'],
    ['removing a file changes its locked parent', [ex('A')], { remove: 'F' }, [], 'locked'],
    ['removing a container with a locked member deep down', [ex('H')], { remove: 'A' }, [], 'locked'],
    ['removing it with that member’s token', [ex('H')], { remove: 'A' }, [0], 'ok'],
    ['removing it needs every lock below, not one of them', [ex('H'), ex('F')], { remove: 'A' }, [0], 'locked'],
    ['removing it with every token below', [ex('H'), ex('F')], { remove: 'A' }, [0, 1], 'ok'],
    [
      'a move: the source’s and the target container’s locks both count',
      [ex('F'), ex('B')],
      { remove: 'F', members: ['B'] },
      [0],
      'locked',
    ],
    ['a move with both tokens', [ex('F'), ex('B')], { remove: 'F', members: ['B'] }, [0, 1], 'ok'],
    ['a lock elsewhere does not matter', [ex('G')], { content: 'F', remove: 'B' }, [], 'ok'],
    ['an expired lock does not matter', [{ ...ex('F'), timeout: 0 }], { content: 'F' }, [], 'ok'],
  ])('%s', (_what, held, intent, submitted, outcome) => {
    const { table, tokens } = tableWith(held);
    const sent = new Set(submitted.map((i) => tokens[i]!));
    expect(codeOf(() => table.assertCanWrite(intent, sent))).toBe(outcome);
  });

  it('a refused write names the lock that refused it', () => {
    const { table } = tableWith([ex('A', 'infinity')]);
    let thrown: unknown;
    try {
      table.assertCanWrite({ content: 'H' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'locked', lockedBy: { rootId: 'A', reason: 'token-not-submitted' } });
  });
});

describe('lock table: refresh, release, expiry', () => {
  it.each<[string, Held[], (t: ReturnType<typeof tableWith>) => unknown, unknown]>([
    [
      'a lock expires after its timeout',
      [{ ...ex('F'), timeout: 10 }],
      (t) => (t.advance(10), t.table.get(t.tokens[0]!)),
      undefined,
    ],
    [
      'and not a moment before',
      [{ ...ex('F'), timeout: 10 }],
      (t) => (t.advance(9.999), t.table.get(t.tokens[0]!)?.rootId),
      'F',
    ],
    [
      'an Infinite lock never expires',
      [{ ...ex('F'), timeout: null }],
      (t) => (t.advance(1e9), t.table.get(t.tokens[0]!)?.rootId),
      'F',
    ],
    [
      'a refresh restarts the timeout from now',
      [{ ...ex('F'), timeout: 10 }],
      (t) => {
        t.advance(8);
        t.table.refresh(t.tokens[0]!, 10);
        t.advance(8);
        return t.table.get(t.tokens[0]!)?.timeout;
      },
      10,
    ],
    [
      'refreshing an unknown token is a conflict',
      [],
      (t) => codeOf(() => t.table.refresh('opaquelocktoken:x', 10)),
      'conflict',
    ],
    [
      'refreshing an expired lock is a conflict',
      [{ ...ex('F'), timeout: 1 }],
      (t) => (t.advance(2), codeOf(() => t.table.refresh(t.tokens[0]!, 10))),
      'conflict',
    ],
    ['release through the locked node', [ex('F')], (t) => (t.table.release(t.tokens[0]!, 'F'), t.table.size), 0],
    [
      'release through a member an infinity lock covers',
      [ex('A', 'infinity')],
      (t) => (t.table.release(t.tokens[0]!, 'H'), t.table.size),
      0,
    ],
    [
      'release through a node the lock does not cover',
      [ex('F')],
      (t) => codeOf(() => t.table.release(t.tokens[0]!, 'G')),
      'conflict',
    ],
    [
      'release through a member of a depth-0 lock',
      [ex('A')],
      (t) => codeOf(() => t.table.release(t.tokens[0]!, 'F')),
      'conflict',
    ],
    [
      'release of an unknown token',
      [ex('F')],
      (t) => codeOf(() => t.table.release('opaquelocktoken:x', 'F')),
      'conflict',
    ],
    [
      'a moved container leaves its locks and those below behind',
      [ex('A'), ex('H'), ex('G'), ex('R')],
      (t) => (t.table.releaseWithin('A'), t.tokens.map((token) => t.table.get(token) !== undefined)),
      [false, false, true, true],
    ],
    ['clear drops every lock', [ex('F'), sh('G')], (t) => (t.table.clear(), t.table.size), 0],
  ])('%s', (_what, held, act, result) => {
    expect(act(tableWith(held))).toEqual(result);
  });

  it('every token is new and opaque (opaquelocktoken: and a UUID)', () => {
    const { tokens } = tableWith([sh('F'), sh('F'), sh('G')]);
    expect(new Set(tokens).size).toBe(3);
    for (const t of tokens)
      expect(t).toMatch(/^opaquelocktoken:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('lock table: bounded', () => {
  const fill = (table: LockTable, timeout: number) => {
    for (let i = 0; i < MAX_LOCKS; i++)
      table.add({ rootId: 'G', owner: 'demo', scope: 'shared', depth: '0', ownerXml: '', timeout });
  };

  it('a full table refuses a new lock as "full" (507)', () => {
    const table = new LockTable(tree(), () => 0);
    fill(table, 600);
    expect(codeOf(() => table.assertCanLock('F', 'A', ex('F')))).toBe('full');
  });

  it('a table full of expired locks sweeps them and makes room', () => {
    let now = 0;
    const table = new LockTable(tree(), () => now);
    fill(table, 1);
    now = 2_000;
    expect(codeOf(() => table.assertCanLock('F', 'A', ex('F')))).toBe('ok');
    expect(table.size).toBe(0);
  });
});
