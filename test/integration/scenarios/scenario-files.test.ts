import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { binaryParser } from '../../helpers/cloud.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/scenarios/', import.meta.url));
const BUILTIN = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

let mock: MockApp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function open(scenario: string | ScenarioDefinition): Promise<MockApp> {
  mock = await createApp({ scenario });
  return mock;
}

interface StateNode {
  id: string;
  container?: string;
  file?: string;
  mimeType?: string;
  public?: boolean;
  tags: string[];
  metadata: Record<string, string>;
  children?: StateNode[];
}

async function treeOf(app: MockApp, user: string): Promise<StateNode[]> {
  return (await request(app.app).get('/__admin/state').expect(200)).body.users[user].tree;
}

describe('seeding the state from a scenario file', () => {
  it('adds the scenario users and builds their tree: containers, files from text, base64 and a fixture, tags, metadata', async () => {
    const app = await open(join(FIXTURES, 'seeded.json'));
    const tree = await treeOf(app, 'alice');
    expect(tree.map((n) => n.container ?? n.file)).toEqual(['Projects', 'empty.txt']);
    const projects = tree[0]!;
    expect(projects).toMatchObject({ tags: ['work'], metadata: { owner: 'team' } });
    const [data, logo, plan] = projects.children!;
    expect(plan).toMatchObject({
      file: 'plan.txt',
      mimeType: 'text/plain',
      tags: ['important'],
      metadata: { author: 'alice' },
    });
    expect(data).toMatchObject({ file: 'data.bin', mimeType: 'application/x-demo' });
    expect(logo).toMatchObject({ file: 'logo.png', mimeType: 'image/png', public: true });

    const content = async (id: string): Promise<Buffer> =>
      (
        await request(app.app)
          .get(`/v2/files/${id}/content`)
          .auth('alice', 'wonderland')
          .buffer(true)
          .parse(binaryParser)
          .expect(200)
      ).body;
    expect((await content(plan!.id)).toString()).toBe('step one\n');
    expect(await content(data!.id)).toEqual(Buffer.from([0, 1, 2, 3, 4]));
    expect(await content(logo!.id)).toEqual(readFileSync(join(FIXTURES, 'logo.bin')));
    const dav = await request(app.app).get('/dav/Projects/plan.txt').auth('alice', 'wonderland').expect(200);
    expect(dav.text).toBe('step one\n');
  });

  it('"trees" gives one user another tree ("demo" is the demo tree) and the configured users keep logging in', async () => {
    const app = await open(join(FIXTURES, 'seeded.json'));
    const names = (await treeOf(app, 'demo')).map((n) => n.container ?? n.file);
    expect(names).toEqual(['Documents', 'Music', 'Photos', 'hello.json']);
    await request(app.app).get('/v2').auth('demo', 'demo').expect(200);
  });

  it('reset puts the state back to the scenario seed', async () => {
    const app = await open(join(FIXTURES, 'seeded.json'));
    const plan = (await treeOf(app, 'alice'))[0]!.children!.find((n) => n.file === 'plan.txt')!;
    await request(app.app).delete(`/v2/files/${plan.id}`).auth('alice', 'wonderland').expect(204);
    expect((await treeOf(app, 'alice'))[0]!.children!.map((n) => n.file)).not.toContain('plan.txt');
    await app.reset();
    expect((await treeOf(app, 'alice'))[0]!.children!.map((n) => n.file)).toContain('plan.txt');
  });

  it('the empty built-in leaves every user an empty root container', async () => {
    const app = await open('empty');
    expect(await treeOf(app, 'demo')).toEqual([]);
  });
});

describe('extends', () => {
  const tmp = useTempDir('scenario-extends');
  it('inherits the parent seed and description, and puts its own faults before the parent faults', async () => {
    const app = await open(join(FIXTURES, 'child.json'));
    expect(app.scenario.name).toBe('child');
    expect(app.scenario.description).toBe("Extends seeded and adds a fault before its parent's.");
    expect((await treeOf(app, 'alice')).map((n) => n.container ?? n.file)).toEqual(['Projects', 'empty.txt']);
    const res = await request(app.app).get('/v2/tags').auth('alice', 'wonderland');
    expect(res.status).toBe(503);
    expect(res.text).toBe('child');
  });

  it("each section merges by its own rule: the clock and random editor are the parent's unless set, changes add up (parent's first), deviations are a union", async () => {
    const trigger = { match: { method: 'GET', path: '/v2' } };
    const parentFile = join(tmp.path, 'sections-parent.json');
    writeFileSync(
      parentFile,
      JSON.stringify({
        clock: { offset: '-5m' },
        randomEditor: { everyMs: 1000, seed: 1 },
        changes: [{ overwrite: '/Documents/readme.txt', text: 'parent', trigger }],
        deviations: ['multipart-content-overwrite'],
      }),
    );
    const child = await open({
      extends: parentFile,
      changes: [{ overwrite: '/Documents/readme.txt', text: 'child', trigger }],
      deviations: ['multipart-content-overwrite'],
    });
    expect(child.scenario.clock).toEqual({ offset: '-5m' });
    expect(child.scenario.randomEditor).toEqual({ everyMs: 1000, seed: 1 });
    expect(child.scenario.changes!.map((c) => (c as { text: string }).text)).toEqual(['parent', 'child']);
    expect(child.scenario.deviations).toEqual(['multipart-content-overwrite']);
    const own = await open({
      extends: parentFile,
      clock: { frozen: '2025-01-01T00:00:00Z' },
      randomEditor: { everyMs: 50 },
    });
    expect(own.scenario.clock).toEqual({ frozen: '2025-01-01T00:00:00Z' });
    expect(own.scenario.randomEditor).toEqual({ everyMs: 50 });
  });

  it('an inline scenario extends a built-in by name', async () => {
    const app = await open({ name: 'mine', extends: 'tag-objects-500' });
    expect(app.scenario.faults.map((f) => f.name)).toEqual(['tag-objects-500']);
  });
});

describe('malformed scenarios are refused, naming the file and the field', () => {
  const rule = { match: { method: 'GET', path: '/v2/tags' } };
  const cases: [string, ScenarioDefinition, string][] = [
    [
      'an unknown field',
      { faults: [{ ...rule, respnd: { status: 500 } } as never] },
      'inline scenario: faults[0].respnd: is not a known field',
    ],
    [
      'a missing path',
      { faults: [{ match: { method: 'GET' }, respond: { status: 500 } } as never] },
      'faults[0].match.path: is required',
    ],
    ['a rule without an action', { faults: [rule] }, 'faults[0]: needs an action'],
    [
      'respond with reset',
      { faults: [{ ...rule, respond: { status: 500 }, connection: 'reset' }] },
      'faults[0].connection: "reset" sends no response',
    ],
    [
      'an unknown connection',
      { faults: [{ ...rule, connection: 'drop' as never }] },
      'faults[0].connection: must be one of ["close","reset"]',
    ],
    [
      'probability without a seed',
      { faults: [{ ...rule, probability: 0.5, delayMs: 1 }] },
      'faults[0].seed: is required with probability',
    ],
    [
      'a string status',
      { faults: [{ ...rule, respond: { status: '500' as never } }] },
      'faults[0].respond.status: must be integer',
    ],
    [
      'content on a container',
      { seed: { tree: [{ container: 'a', text: 'x' }] } },
      'seed.tree[0].text: applies to files only',
    ],
    ['a name used twice', { seed: { tree: [{ file: 'a' }, { file: 'a' }] } }, 'seed.tree[1]: "a" appears twice'],
    [
      'a slash in a name',
      { seed: { tree: [{ container: 'x', children: [{ file: 'a/b' }] }] } },
      'seed.tree[0].children[0].file: is not allowed: A container or file name',
    ],
    [
      'two contents',
      { seed: { tree: [{ file: 'a', text: 'x', base64: 'AA==' }] } },
      'seed.tree[0].base64: give one content',
    ],
    [
      'a tree that is neither "demo" nor a list',
      { seed: { tree: 'demox' as never } },
      'seed.tree: has none of the allowed forms',
    ],
    [
      // The base64 pattern once backtracked over every space: 100k of them took minutes.
      'base64 of 100,000 spaces and a "!"',
      { seed: { tree: [{ file: 'a', base64: `${' '.repeat(100_000)}!` }] } },
      'seed.tree[0].base64: is not valid base64',
    ],
    ['latency maxMs below minMs', { latency: { minMs: 100, maxMs: 50 } }, 'latency.maxMs: must not be below minMs'],
    ['a recording name with a path', { recording: '../x' }, 'recording: must match pattern'],
    ['an unknown extends', { extends: 'no-such-scenario' }, 'no scenario named "no-such-scenario"'],
  ];
  it.each(cases)('refuses %s', async (_what, scenario, message) => {
    await expect(createApp({ scenario })).rejects.toThrow(message);
  });

  it.each([
    ['bad-status.json', 'faults[0].respond.status: must be integer'],
    ['bad-json.json', 'not valid JSON'],
    ['cycle-a.json', 'extends: cycle'],
  ])('refuses the file %s with its path in the message', async (file, message) => {
    const path = join(FIXTURES, file);
    await expect(createApp({ scenario: path })).rejects.toThrow(`${path}: `);
    await expect(createApp({ scenario: path })).rejects.toThrow(message);
  });

  it('refuses a fixture that cannot be read, naming the seed field', async () => {
    await expect(createApp({ scenario: { seed: { tree: [{ file: 'a', fixture: 'missing.bin' }] } } })).rejects.toThrow(
      'inline scenario: seed.tree[0].fixture: cannot read',
    );
  });

  it('refuses a file path that does not exist', async () => {
    await expect(createApp({ scenario: join(FIXTURES, 'nope.json') })).rejects.toThrow('nope.json: no such file');
  });
});

describe('the published JSON Schema', () => {
  it('is a draft-07 schema that every built-in scenario names and passes', async () => {
    const schema = JSON.parse(readFileSync(join(BUILTIN, 'scenario.schema.json'), 'utf8'));
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const files = readdirSync(BUILTIN).filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json');
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) {
      const parsed = JSON.parse(readFileSync(join(BUILTIN, file), 'utf8'));
      expect(parsed.$schema).toBe('./scenario.schema.json');
      const app = await createApp({ scenario: file.replace(/\.json$/, '') });
      expect(app.scenario.name).toBe(file.replace(/\.json$/, ''));
      expect(app.scenario.description.length).toBeGreaterThan(10);
      await app.close();
    }
  });
});

describe('a scenario that names a recording', () => {
  it('is refused, naming the field, when the recording cannot be found', async () => {
    await expect(createApp({ scenario: { recording: 'session-1' } })).rejects.toThrow(
      /inline scenario: recording: no recording named "session-1"/,
    );
  });

  it('hands the requests no fault answers to the replayHandler built for that recording', async () => {
    const built: string[] = [];
    const app = await createApp({
      scenario: {
        recording: 'session-1',
        faults: [{ match: { method: 'GET', path: '/v2/tags' }, respond: { status: 503 } }],
      },
      replayHandler: async (recording) => {
        built.push(recording);
        return (req, res) => {
          res.status(299).type('text/plain').send(`replayed ${req.method} ${req.path} from ${recording}`);
        };
      },
    });
    mock = app;
    expect(app.scenario.recording).toBe('session-1');
    expect(built).toEqual(['session-1']);
    expect((await request(app.app).get('/v2/account')).text).toBe('replayed GET /v2/account from session-1');
    expect((await request(app.app).get('/v2/tags')).status).toBe(503);
  });
});

describe('scenario file messages', () => {
  const tmp = useTempDir('scenario-messages');

  it('gives the line and column of invalid JSON', async () => {
    const file = join(tmp.path, 'broken.json');
    writeFileSync(file, '{\n  "faults": [],\n}\n');
    await expect(createApp({ scenario: file })).rejects.toThrow(/broken\.json: not valid JSON: line 3, column 1/);
  });

  it('reports every schema problem at once', async () => {
    const file = join(tmp.path, 'many.json');
    writeFileSync(
      file,
      JSON.stringify({ colour: 'red', faults: [{ match: { method: 'GET' }, respond: { status: 'x' } }] }),
    );
    const err = await createApp({ scenario: file }).catch((e: Error) => e);
    expect(String(err)).toMatch(/3 problems/);
    expect(String(err)).toContain('colour: is not a known field');
    expect(String(err)).toContain('faults[0].match.path: is required');
    expect(String(err)).toContain('faults[0].respond.status');
  });

  it('finds a scenario by its "name" field as well as by its file name', async () => {
    mkdirSync(join(tmp.path, 'scenarios'));
    writeFileSync(join(tmp.path, 'scenarios', 'my-file.json'), JSON.stringify({ name: 'declared', faults: [] }));
    const mock = await createApp({ baseDir: tmp.path, scenario: 'declared' });
    try {
      expect(mock.scenario.name).toBe('declared');
      expect(mock.scenario.source).toBe(join(tmp.path, 'scenarios', 'my-file.json'));
    } finally {
      await mock.close();
    }
  });
});
