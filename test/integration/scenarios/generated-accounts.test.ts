import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type MockOptions } from '../../../src/index.js';
import type { NodeRecord } from '../../../src/domain/model.js';
import { resolveGenerateSpec } from '../../../src/scenarios/generate/generate-spec.js';
import { addGeneratedTree } from '../../../src/scenarios/generate/generated-tree.js';
import { parseSyntheticBlobId, syntheticBytes } from '../../../src/storage/synthetic-content.js';
import { killServersAfterEach, serve, ServeProcess } from '../../helpers/cli.js';
import { binaryParser } from '../../helpers/cloud.js';
import { HttpCloud } from '../../helpers/http-cloud.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const SPEC = {
  files: 2000,
  folders: 40,
  depth: 3,
  size: { min: '1KB', max: '300KB' },
  mimeTypes: ['image/jpeg', 'text/plain'],
  seed: 7,
};

const opened: MockApp[] = [];
afterEach(async () => {
  for (const mock of opened.splice(0)) await mock.close();
});
async function open(options: MockOptions): Promise<MockApp> {
  const mock = await createApp({ seed: 'empty', ...options });
  opened.push(mock);
  return mock;
}

/** What makes a tree the same tree: every node's id, place, name, size, type and content reference. */
function shapeOf(mock: MockApp): string[] {
  return Object.values(mock.store.snapshot().nodes)
    .map((n) => [n.id, n.parentId, n.kind, n.name, n.bytes, n.mimeType, n.blobId].join(' '))
    .sort();
}

function depthOf(node: NodeRecord, nodes: Record<string, NodeRecord>): number {
  let depth = 0;
  for (let at = node; at.parentId; at = nodes[at.parentId]!) depth++;
  return depth;
}

describe('generated accounts: a seed that describes a tree instead of listing it', () => {
  it('makes the stated tree: folder and file counts, depth, sizes, types with their extensions, files spread evenly', async () => {
    const mock = await open({ generate: SPEC });
    const nodes = mock.store.snapshot().nodes;
    const all = Object.values(nodes);
    const folders = all.filter((n) => n.kind === 'container' && n.parentId !== null);
    const files = all.filter((n) => n.kind === 'file');
    expect(folders).toHaveLength(40);
    expect(files).toHaveLength(2000);
    expect(Math.max(...folders.map((f) => depthOf(f, nodes)))).toBe(3);
    for (const file of files) {
      expect(file.bytes).toBeGreaterThanOrEqual(1000);
      expect(file.bytes).toBeLessThanOrEqual(300_000);
      expect(file.name).toMatch(file.mimeType === 'image/jpeg' ? /^file-\d+\.jpg$/ : /^file-\d+\.txt$/);
    }
    expect(new Set(files.map((f) => f.mimeType))).toEqual(new Set(['image/jpeg', 'text/plain']));
    const perFolder = new Map<string, number>();
    for (const file of files) perFolder.set(file.parentId!, (perFolder.get(file.parentId!) ?? 0) + 1);
    expect(new Set(perFolder.values())).toEqual(new Set([50]));
  });

  it('the same seed makes the same tree (ids, names, sizes) in two mocks, and another seed another', async () => {
    const [a, b, other] = await Promise.all([
      open({ generate: SPEC }),
      open({ generate: SPEC }),
      open({ generate: { ...SPEC, seed: 8 } }),
    ]);
    expect(shapeOf(a)).toEqual(shapeOf(b));
    expect(shapeOf(other)).not.toEqual(shapeOf(a));
  });

  it('a scenario seed.generate gives each user a tree of their own (ids apart), the same in every mock', async () => {
    const scenario = { seed: { users: { alice: 'pw' }, generate: { files: 30, folders: 3, seed: 3 } } };
    const mock = await open({ scenario });
    const nodes = Object.values(mock.store.snapshot().nodes);
    expect(nodes.filter((n) => n.owner === 'alice' && n.kind === 'file')).toHaveLength(30);
    expect(nodes.filter((n) => n.owner === 'demo' && n.kind === 'file')).toHaveLength(30);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    expect(shapeOf(await open({ scenario }))).toEqual(shapeOf(mock));
  });

  it('a reset brings the generated tree back as it was made, after a write over one of its files', async () => {
    const mock = await open({ generate: { files: 10, seed: 2 } });
    const before = shapeOf(mock);
    const file = Object.values(mock.store.snapshot().nodes).find((n) => n.kind === 'file')!;
    await mock.store.writeContent('demo', file.id, Buffer.from('changed'));
    expect(shapeOf(mock)).not.toEqual(before);
    await mock.reset();
    expect(shapeOf(mock)).toEqual(before);
  });

  it('a generated account is built in slices: other work runs between them, before the build is done', async () => {
    const mock = await open({});
    const state = mock.store.builder();
    state.addUser('slices');
    const building = addGeneratedTree(state, 'slices', resolveGenerateSpec({ files: 20_000, folders: 10, seed: 3 }));
    // Queued after the build began: it runs at the build's first turn, while the build is part way.
    const seenBetween = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(Object.keys(state.state().nodes).length)),
    );
    await building;
    const whole = Object.keys(state.state().nodes).length;
    expect(whole).toBe(1 + 10 + 20_000);
    expect(seenBetween).toBeGreaterThan(1);
    expect(seenBetween).toBeLessThan(whole);
    await state.discard();
  });

  it('a request during a switch to a big generated scenario is answered under the old state before the switch is done', async () => {
    const mock = await open({ generate: { files: 3, size: 10, seed: 2 } });
    // WebDAV's routes load on the first /dav request: loaded here, so the request below races the switch's turns
    // only, not the loading of a module.
    await request(mock.app).get('/dav/file-1.bin').auth('demo', 'demo').expect(200);
    const order: string[] = [];
    const switching = mock
      .useScenario({ name: 'big-generated', seed: { generate: { files: 30_000, size: 20, seed: 9 } } })
      .then(() => order.push('switched'));
    const read = await request(mock.app).get('/dav/file-1.bin').auth('demo', 'demo').buffer(true).parse(binaryParser);
    order.push('answered');
    await switching;
    expect(read.status).toBe(200);
    expect((read.body as Buffer).length).toBe(10);
    expect(order).toEqual(['answered', 'switched']);
    const after = await request(mock.app).get('/dav/file-1.bin').auth('demo', 'demo').buffer(true).parse(binaryParser);
    expect((after.body as Buffer).length).toBe(20);
  });

  it('the inspector shows generated files as files of their size, a bounded page of a big folder at a time, with their bytes', async () => {
    const mock = await open({ generate: { files: 1200, size: { min: 10, max: 5000 }, seed: 4 } });
    const rootId = mock.store.root('demo').id;
    const page = await request(mock.app)
      .get('/__admin/inspector/children')
      .query({ user: 'demo', id: rootId })
      .expect(200);
    const shown = page.body.nodes as Array<{ id: string; kind: string; bytes: number }>;
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(1200);
    const nodes = mock.store.snapshot().nodes;
    for (const item of shown) {
      expect(item.kind).toBe('file');
      expect(item.bytes).toBe(nodes[item.id]!.bytes);
    }
    const first = shown[0]!;
    const content = await request(mock.app)
      .get('/__admin/inspector/content')
      .query({ user: 'demo', id: first.id })
      .buffer(true)
      .parse(binaryParser)
      .expect(200);
    expect(content.body).toEqual(syntheticBytes(parseSyntheticBlobId(nodes[first.id]!.blobId!)!));
  });

  it.each([
    [{ seed: { generate: { files: -1 } } }, 'seed.generate.files'],
    [
      { seed: { generate: { files: 5, size: '5 parsecs' } } },
      'seed.generate.size: has none of the allowed forms (A byte size',
    ],
    [{ seed: { generate: { folders: 3, depth: 0 } } }, 'seed.generate.depth: must be at least 1 with 3 folders'],
    [{ seed: { tree: [], generate: { files: 1 } } }, 'seed.generate: give tree or generate, not both'],
  ])(
    'a scenario with bad generator input is refused with one error naming the field (%j)',
    async (scenario, message) => {
      await expect(open({ scenario })).rejects.toThrow(message);
    },
  );

  it('an account too large for the stated memory is refused before it is built, naming the numbers', async () => {
    await expect(open({ generate: { files: 1_000_000, folders: 20_000, maxMemory: '64MiB' } })).rejects.toThrow(
      /^generate.maxMemory: 1000000 files and 20000 folders for one user need about .* more than maxMemory of 64 MiB/,
    );
  });
});

describe('generated accounts sent over HTTP (untrusted)', () => {
  const putScenario = (mock: MockApp, scenario: unknown) =>
    request(mock.app).put('/__admin/scenario').set('Content-Type', 'application/json').send(JSON.stringify(scenario));

  it('seed.generate with maxMemory 1TiB over HTTP is a 400 naming seed.generate.maxMemory; too many files without it a 400 naming seed.generate.files; the mock goes on', async () => {
    const mock = await open({});
    const lifted = await putScenario(mock, {
      name: 'huge',
      seed: { generate: { files: 3_000_000, maxMemory: '1TiB' } },
    });
    expect(lifted.status).toBe(400);
    expect(lifted.text).toMatch(/seed\.generate\.maxMemory: a scenario sent over HTTP cannot set the memory cap/);
    const big = await putScenario(mock, { name: 'huge', seed: { generate: { files: 2_000_000_000 } } });
    expect(big.status).toBe(400);
    expect(big.text).toMatch(
      /seed\.generate\.files: 2000000000 files .* more than the \d+(\.\d)? [MG]iB the JavaScript heap has free/,
    );
    expect((await request(mock.app).get('/__admin/scenario')).body.name).toBe('default');
    await request(mock.app).get('/v2').auth('demo', 'demo').set('X-Client-Specification', '2').expect(200);
    // A small generated account is still welcome over HTTP.
    expect((await putScenario(mock, { name: 'small', seed: { generate: { files: 10 } } })).status).toBe(200);
  });
});

describe('generated accounts from the command line (serve --generate)', { timeout: 60_000 }, () => {
  killServersAfterEach();
  const tmp = useTempDir('generated');
  const GENERATE = ['--generate', 'files=120,folders=6,depth=2,size=1KB~64KB,seed=9'];

  /** Every file's path, size, ETag and content digest, by the service's own answers. */
  async function account(server: ServeProcess): Promise<string[]> {
    const cloud = new HttpCloud(server.url);
    const lines: string[] = [];
    const work = [await cloud.rootPath()];
    for (let path = work.pop(); path; path = work.pop()) {
      for (const item of await cloud.list(path)) {
        if (item.kind === 'container') {
          work.push(item.path);
          continue;
        }
        const res = await cloud.request(`${item.path}/content`, {}, 200);
        const digest = createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex');
        lines.push(`${item.path} ${item.name} ${item.bytes} ${res.headers.get('etag')} ${digest}`);
      }
    }
    return lines.sort();
  }

  it('two processes with the same --generate serve the same account: paths, sizes, ETags and bytes', async () => {
    const [first, second] = await Promise.all([serve(GENERATE), serve(GENERATE)]);
    const seen = await account(first);
    expect(seen).toHaveLength(120);
    expect(await account(second)).toEqual(seen);
  });

  it('a --data restart keeps the generated account (not made again): its bytes, and an overwrite of one of its files', async () => {
    const data = join(tmp.path, 'state.json');
    const first = await serve([...GENERATE, '--data', data]);
    const before = await account(first);
    const cloud = new HttpCloud(first.url);
    const target = before[0]!.split(' ')[0]!;
    await cloud.putContent(target, Buffer.from('written over'));
    expect(await first.stop('SIGTERM')).toMatchObject({ code: 0 });

    // Another seed on the restart changes nothing: a kept state is not seeded again.
    const second = await serve(['--generate', 'files=5,seed=1', '--data', data]);
    const after = await account(second);
    expect(after).toHaveLength(120);
    expect(after.slice(1)).toEqual(before.slice(1));
    expect((await new HttpCloud(second.url).content(target)).toString()).toBe('written over');
  });

  it.each([
    [['--generate', 'files=-5'], 'generate.files: must be a whole number >= 0, got -5'],
    [
      ['--generate', 'files=10,size=big'],
      'generate.size: must be a byte size such as 4096, "200KB" or "1.5 MiB", got "big"',
    ],
    [['--generate', 'files=1000000,folders=20000', '--max-memory', '100MiB'], 'more than maxMemory of 100 MiB'],
    [['--max-memory', '1GiB'], '--max-memory applies only with --generate'],
  ])('serve %j exits with one clear error', async (args, message) => {
    const server = new ServeProcess(['serve', '--port', '0', ...args]);
    const exit = await server.exited;
    expect(exit.code).not.toBe(0);
    expect(server.stderr.join('\n')).toContain(message);
  });
});
