import { existsSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import { Tree } from '../../../src/domain/tree.js';
import type { NodeRecord, StateData } from '../../../src/storage/schema.js';
import { readSnapshot, writeSnapshot } from '../../../src/storage/snapshot-file.js';
import { readSnapshotLines } from '../../../src/storage/snapshot-lines.js';
import { stateTempFileOf } from '../../../src/storage/state-file.js';
import { openStatePersistence, emptyPlainState } from '../../../src/storage/state-log.js';
import type { StateMaps } from '../../../src/storage/state-maps.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const node = (id: string, parentId: string | null, more: Partial<NodeRecord> = {}): NodeRecord =>
  nodeRecord({
    id,
    kind: 'container',
    name: parentId === null ? '/' : `name of ${id}`,
    parentId,
    created: 1795531109,
    modified: 1795531109,
    accessed: 1795531109,
    ...more,
  });

/** A state with what a layout could trip on: ids and logins that need escapes or look like prototype keys. */
function awkwardState(): StateData & { logSeq: number } {
  const nodes: NodeRecord[] = [
    node('root-demo', null),
    node('root-proto', null, { owner: '__proto__' }),
    node('folder', 'root-demo', { name: '  "nodes": {', tags: ['a', 'b'] }),
    node('__proto__', 'folder', { kind: 'file', name: 'line\nbreak "quoted" é', mimeType: 'text/plain', bytes: 3 }),
    // JSON.parse makes "__proto__" an own key (an object literal would set the prototype instead).
    node('we"ird\\id é', 'folder', { metadata: JSON.parse('{"__proto__":"x","k":"v"}') as Record<string, string> }),
    node('child-of-weird', 'we"ird\\id é', {
      kind: 'file',
      blobId: '0123456789abcdef0123456789abcdef',
      deadProps: { '{DAV:}x': '<x/>' },
    }),
    node('synthetic', 'root-proto', { kind: 'file', blobId: 'syn:42:synthetic:1:460712', bytes: 460712 }),
  ];
  // Null-prototype objects, as the store's documents are: any key is plain data.
  const users = Object.create(null) as StateData['users'];
  users['demo'] = { rootId: 'root-demo' };
  users['__proto__'] = { rootId: 'root-proto', storageAllocated: 1000 };
  const byId = Object.create(null) as StateData['nodes'];
  for (const n of nodes) byId[n.id] = n;
  const queues = Object.create(null) as NonNullable<StateData['queues']>;
  queues['demo/q'] = {
    owner: 'demo',
    name: 'q',
    id: 'q1',
    created: 1,
    events: [],
    scope: null,
    metadata: {},
    limit: 10,
    next: 0,
    dropped: 0,
    values: [],
  };
  return { schema: 1, logSeq: 9, users, nodes: byId, queues };
}

/** The state as sorted entries, for comparing reads whatever their order. */
const entries = (state: StateMaps) => ({
  users: [...state.users].sort(([a], [b]) => (a < b ? -1 : 1)),
  nodes: [...state.nodes].sort(([a], [b]) => (a < b ? -1 : 1)),
  queues: state.queues,
});

/** What JSON.parse of the whole text gives, in the same terms. */
function parsedWhole(text: string) {
  const doc = JSON.parse(text) as StateData;
  return {
    users: Object.entries(doc.users).sort(([a], [b]) => (a < b ? -1 : 1)),
    nodes: Object.entries(doc.nodes).sort(([a], [b]) => (a < b ? -1 : 1)),
    queues: doc.queues,
  };
}

/** The same JSON document with its top-level keys in another order, one node per line still. */
function reordered(text: string): string {
  const doc = JSON.parse(text) as StateData & { logSeq: number };
  return JSON.stringify(
    { nodes: doc.nodes, queues: doc.queues, users: doc.users, logSeq: doc.logSeq, schema: 1 },
    null,
    '\t',
  );
}

/** The line form with its node lines in reverse order (children before their parents). */
function nodesReversed(text: string): string {
  const lines = text.split('\n');
  const first = lines.indexOf('  "nodes": {') + 1;
  const last = lines.indexOf('  },', first);
  const nodeLines = lines
    .slice(first, last)
    .map((l) => l.replace(/,$/, ''))
    .reverse();
  return [...lines.slice(0, first), nodeLines.join(',\n'), ...lines.slice(last)].join('\n');
}

describe('a state file reads to the same state in any JSON layout', () => {
  const tmp = useTempDir('layouts');
  let file: string;
  let lineForm: string;
  beforeEach(async () => {
    file = join(tmp.path, 'state.json');
    await writeSnapshot(file, awkwardState(), 9);
    lineForm = await readFile(file, 'utf8');
  });

  const layouts: Array<[string, 'by lines' | 'whole', (text: string) => string]> = [
    ['as written (one node per line)', 'by lines', (t) => t],
    ['with CRLF line ends', 'by lines', (t) => t.replace(/\n/g, '\r\n')],
    ['with children before their parents', 'by lines', nodesReversed],
    ['without the final line end', 'by lines', (t) => t.trimEnd()],
    ['reformatted with two-space indents (as jq writes it)', 'whole', (t) => JSON.stringify(JSON.parse(t), null, 2)],
    ['on one line', 'whole', (t) => JSON.stringify(JSON.parse(t))],
    ['with its keys reordered and tabs', 'whole', reordered],
    [
      'CRLF line ends, two-space indents',
      'whole',
      (t) => JSON.stringify(JSON.parse(t), null, 2).replace(/\n/g, '\r\n'),
    ],
  ];

  it.each(layouts)('%s: the state JSON.parse gives, read %s', async (_what, how, layout) => {
    const text = layout(lineForm);
    await writeFile(file, text);
    const read = (await readSnapshot(file))!;
    expect(read.seq).toBe(9);
    expect(read.bytes).toBe(Buffer.byteLength(text));
    expect(entries(read.state)).toEqual(parsedWhole(text));
    expect(read.state.users.get('__proto__')).toEqual({ rootId: 'root-proto', storageAllocated: 1000 });
    expect(read.state.nodes.get('__proto__')!.name).toBe('line\nbreak "quoted" é');
    expect(Object.keys(read.state.nodes.get('we"ird\\id é')!.metadata)).toEqual(['__proto__', 'k']);
    const fh = await open(file, 'r');
    try {
      expect((await readSnapshotLines(fh)) === undefined ? 'whole' : 'by lines').toBe(how);
    } finally {
      await fh.close();
    }
  });

  it('every layout loads into the same tree', async () => {
    const trees: string[] = [];
    for (const [, , layout] of layouts) {
      await writeFile(file, layout(lineForm));
      const tree = new Tree((await readSnapshot(file))!.state);
      const state = tree.toState();
      trees.push(JSON.stringify({ ...state, nodes: Object.entries(state.nodes).sort(([a], [b]) => (a < b ? -1 : 1)) }));
      expect(tree.children('folder').map((n) => n.id)).toEqual(['we"ird\\id é', '__proto__']);
      expect(tree.subtreeBytes('root-proto')).toBe(460712);
    }
    expect(new Set(trees).size).toBe(1);
  });

  it('a node line longer than one read (3 MiB of metadata) reads by lines, whole', async () => {
    const state = awkwardState();
    state.nodes['folder']!.metadata = { big: 'é'.repeat(1536 * 1024) };
    await writeSnapshot(file, state, 9);
    const read = (await readSnapshot(file))!;
    expect(read.state.nodes.get('folder')!.metadata['big']).toBe('é'.repeat(1536 * 1024));
    expect(entries(read.state)).toEqual(parsedWhole(await readFile(file, 'utf8')));
    const fh = await open(file, 'r');
    try {
      expect(await readSnapshotLines(fh)).toBeDefined();
    } finally {
      await fh.close();
    }
  });

  it('a node key given twice keeps the later record, as JSON.parse does', async () => {
    const twice = lineForm.replace(
      /^( {4}"folder": .*),$/m,
      (line, body: string) => `${line}\n${body.replace('"name":"  \\"nodes\\": {"', '"name":"renamed"')},`,
    );
    expect(twice).not.toBe(lineForm);
    await writeFile(file, twice);
    const read = (await readSnapshot(file))!;
    expect(read.state.nodes.get('folder')!.name).toBe('renamed');
    expect(entries(read.state)).toEqual(parsedWhole(twice));
  });

  it('a later "nodes" key replaces the node lines, as JSON.parse does (and the state is refused for it)', async () => {
    await writeFile(file, lineForm.replace(/\n}\n$/, ',\n  "nodes": {}\n}\n'));
    await expect(readSnapshot(file)).rejects.toThrow(/is not a csp-mock state: user "demo" has no root container/);
  });
});

describe('a damaged state file in its line form is refused as in any other layout', () => {
  const tmp = useTempDir('line-damage');
  let file: string;
  beforeEach(() => {
    file = join(tmp.path, 'state.json');
  });

  /** The message readSnapshot refuses a state with, written one node per line and written on one line. */
  async function refusals(state: StateData): Promise<[string, string]> {
    await writeSnapshot(file, state, 0);
    expect(await readFile(file, 'utf8')).toMatch(/\n {4}"/);
    const byLines = await readSnapshot(file).then(
      () => 'loaded',
      (err: Error) => err.message,
    );
    await writeFile(file, JSON.stringify({ ...state, logSeq: 0 }));
    const whole = await readSnapshot(file).then(
      () => 'loaded',
      (err: Error) => err.message,
    );
    return [byLines, whole];
  }

  const damaged = (change: (nodes: StateData['nodes']) => void): StateData => {
    const state = awkwardState();
    change(state.nodes);
    return state;
  };

  it.each<[string, (nodes: StateData['nodes']) => void, string]>([
    [
      'a node that is its own parent',
      (n) => (n['folder']!.parentId = 'folder'),
      'nodes "folder" -> "folder" form a parent cycle',
    ],
    [
      'A under B under A',
      (n) => (n['folder']!.parentId = 'we"ird\\id é'),
      'nodes "folder" -> "we\\"ird\\\\id é" -> "folder" form a parent cycle',
    ],
    [
      'a missing parent',
      (n) => (n['child-of-weird']!.parentId = 'gone'),
      'node "child-of-weird" has parent "gone", which is not in the state',
    ],
    [
      'a node whose key is not its id',
      (n) => (n['folder'] = { ...n['folder']!, id: 'other' }),
      'node "folder" has id "other", expected its key',
    ],
    [
      'a parentless node that is no root',
      (n) => (n['folder']!.parentId = null),
      `node "folder" has no parent and is no user's root`,
    ],
    [
      'tags that are not strings',
      (n) => ((n['folder'] as unknown as { tags: unknown }).tags = [1]),
      'node "folder" has tags [1], expected a list of strings',
    ],
    [
      'a blob named by a path',
      (n) => (n['child-of-weird']!.blobId = '../../etc/passwd'),
      'node "child-of-weird" has blobId "../../etc/passwd", expected null or a blob id (32 hex digits, or generated content)',
    ],
  ])('%s: the same message either way', async (_what, change, message) => {
    const [byLines, whole] = await refusals(damaged(change));
    expect(byLines).toBe(whole);
    expect(byLines).toBe(`state file ${file} is not a csp-mock state: ${message}`);
  });

  it('a node with the id __proto__ is plain data, one node per line as on one line', async () => {
    const [byLines, whole] = await refusals(damaged((n) => (n['__proto__']!.parentId = 'root-demo')));
    expect([byLines, whole]).toEqual(['loaded', 'loaded']);
    await writeSnapshot(file, awkwardState(), 0);
    const read = (await readSnapshot(file))!;
    expect(read.state.nodes.get('__proto__')).toMatchObject({ id: '__proto__', parentId: 'folder', kind: 'file' });
    expect(({} as Record<string, unknown>)['kind']).toBeUndefined();
  });

  it.each<[string, (text: string) => string]>([
    ['torn in the middle of a node line', (t) => t.slice(0, t.indexOf('"name":"name of child-of-weird"') + 12)],
    [
      'with a node line garbled',
      (t) => t.replace('"kind":"file","owner":"demo","name":"name of child', '"kind":"file";"owner'),
    ],
    [
      'with a node line cut short and the rest of the file after it',
      (t) => t.replace(/"recycled":null},\n {4}"we/, '"recy\n    "we'),
    ],
    ['with a comma missing between two node lines', (t) => t.replace(/},\n( {4}"we)/, '}\n$1')],
  ])('a snapshot %s is refused as not JSON, and a start leaves it as it was', async (_what, damage) => {
    await writeSnapshot(file, awkwardState(), 0);
    const written = await readFile(file, 'utf8');
    const text = damage(written);
    expect(text).not.toBe(written);
    await writeFile(file, text);
    await expect(readSnapshot(file)).rejects.toThrow(`state file ${file} is not valid JSON (`);
    const persistence = openStatePersistence(file, { snapshot: emptyPlainState });
    await expect(persistence.load()).rejects.toThrow(/is not valid JSON .*move it away or pick another --data file/);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(existsSync(stateTempFileOf(file))).toBe(false);
  });
});
