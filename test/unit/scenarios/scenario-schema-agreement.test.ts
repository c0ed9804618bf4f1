// The published scenario schema and the code's own checks give one verdict: a value the schema lets through
// is one the code can use, and the reverse (a rate "1 TB/s" was read by the code and refused by the schema).
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SCENARIO_SECTIONS } from '../../../src/features.js';
import { bytesPerSecond } from '../../../src/scenarios/network/byte-rate.js';
import { SCHEMA_FILE } from '../../../src/scenarios/catalog.js';
import { loadScenario } from '../../../src/scenarios/load.js';
import { ScenarioError } from '../../../src/scenarios/scenario-error.js';
import type { ByteRate, ScenarioDefinition } from '../../../src/scenarios/types.js';

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { definitions: Record<string, unknown> };
const ajv = new Ajv({ strict: false });
const validRate = ajv.compile({ definitions: schema.definitions, $ref: '#/definitions/byteRate' });

describe('the scenario schema and the code agree', () => {
  it.each<[unknown]>([
    [1],
    [1024],
    [0],
    [-1],
    [1.5],
    [2 ** 53],
    [Number.MAX_SAFE_INTEGER],
    ['256 KiB/s'],
    ['1 TB/s'],
    ['1 TiB/s'],
    ['2.5 GiB/s'],
    ['1 Mbit/s'],
    ['1 Kbit/s'],
    ['1 bit/s'],
    ['0.5 B/s'],
    ['0 B/s'],
    ['0.0 kB/s'],
    ['1 PB/s'],
    ['1 kb/s'],
    ['256KiB/s'],
    [' 1 MB/s '],
    ['1 MB'],
    [`${'9'.repeat(400)} B/s`],
    ['1e9 B/s'],
    [''],
  ])('a byte rate of %j gets the same verdict from the schema and from bytesPerSecond', (rate) => {
    const code =
      typeof rate === 'number' || typeof rate === 'string' ? bytesPerSecond(rate as ByteRate) !== undefined : false;
    expect(validRate(rate)).toBe(code);
  });
});

const validScenario = ajv.compile(schema);
const rule = (extra: object): object => ({ faults: [{ match: { method: 'GET', path: '/v2/**' }, ...extra }] });
const DURATIONS = [
  0,
  -1,
  1.5,
  253402300799999,
  253402300800000,
  -253402300800000,
  1e20,
  '90s',
  '-5m',
  '1h30m',
  '1.5s',
  ' 2d ',
  '+5m',
  '',
  'abc',
  '5',
  '1e3s',
  '99999999999d',
  'd',
  '5 s',
  '5S',
];
const EDGES: Array<[string, unknown[], (v: unknown) => object]> = [
  ['clock.offset', DURATIONS, (v) => ({ clock: { offset: v } })],
  [
    'clock.frozen',
    [
      0,
      -1,
      1.5,
      253402300799999,
      253402300800000,
      1e20,
      '2025-01-01T00:00:00Z',
      '2025-01-01',
      '2025-01-01T00:00:00',
      '2025-13-45T00:00:00Z',
      'x',
      '10000-01-01T00:00:00Z',
      '1969-12-31',
      '2025-01-01t00:00:00z',
      '2025-01-01 00:00Z',
    ],
    (v) => ({ clock: { frozen: v } }),
  ],
  ['latency.median', DURATIONS, (v) => ({ latency: { median: v, p99: 253402300799999 } })],
  ['latency.p99', DURATIONS, (v) => ({ latency: { median: '1ms', p99: v } })],
  ['latency.minMs', [0, -1, 1.5, 600000, 600001], (v) => ({ latency: { minMs: v } })],
  ['faults[0].delayMs', [0, -1, 600000, 600001, 1.5], (v) => rule({ delayMs: v })],
  ['faults[0].times', [0, 1, 1.5, 2 ** 53], (v) => rule({ times: v, delayMs: 1 })],
  ['faults[0].after', [0, -1, 2 ** 53], (v) => rule({ after: v, delayMs: 1 })],
  ['faults[0].probability', [-0.1, 0, 0.5, 1, 1.1], (v) => rule({ probability: v, seed: 1, delayMs: 1 })],
  ['faults[0].truncateAfterBytes', [0, -1, 1.5], (v) => rule({ truncateAfterBytes: v })],
  ['faults[0].respond.status', [199, 200, 204, 599, 600, 200.5], (v) => rule({ respond: { status: v } })],
  [
    'faults[0].respond.headers',
    [{ 'x-a': 'b' }, { 'x a': 'b' }, { 'x-a': 'b\r\nc' }, { '': 'b' }, { 'x-a': 'caf\u00e9' }, { 'x-a': '\u20ac' }],
    (v) => rule({ respond: { status: 200, headers: v } }),
  ],
  [
    'faults[0].match.method',
    ['GET', 'get', '*', 'PROPFIND', 'G-ET', '', ['GET'], [], ['*']],
    (v) => ({ faults: [{ match: { method: v, path: '/' }, delayMs: 1 }] }),
  ],
  [
    'faults[0].match.path',
    ['/', '/v2/**', 'v2', ''],
    (v) => ({ faults: [{ match: { method: 'GET', path: v }, delayMs: 1 }] }),
  ],
  ['faults[0].slice.bytes', [1, 0, 1.5], (v) => rule({ slice: { bytes: v, delayMs: 1 } })],
  ['faults[0].slice.jitterBytes', [0, -1, 5, 10], (v) => rule({ slice: { bytes: 10, jitterBytes: v, delayMs: 1 } })],
  ['faults[0].hang.afterBytes', [0, -1], (v) => rule({ hang: { afterBytes: v } })],
  ['faults[0].bandwidth.down', [1, 0, '1 MB/s', 'abc'], (v) => rule({ bandwidth: { down: v } })],
  ['randomEditor.everyMs', [9, 10, 86400000, 86400001, 1.5], (v) => ({ randomEditor: { everyMs: v } })],
  ['randomEditor.limit', [0, 1, 100000, 100001], (v) => ({ randomEditor: { everyMs: 1000, limit: v } })],
  [
    'changes[0].trigger.delayMs',
    [-1, 0, 86400000, 86400001],
    (v) => ({ changes: [{ create: '/x.txt', trigger: { delayMs: v } }] }),
  ],
  [
    'changes[0].trigger.nth',
    [0, 1],
    (v) => ({ changes: [{ create: '/x.txt', trigger: { match: { method: 'GET', path: '/' }, nth: v } }] }),
  ],
  [
    'changes[0].quota',
    [-1, 0, 2 ** 53 - 1, 2 ** 53, 1.5],
    (v) => ({ changes: [{ quota: v, trigger: { delayMs: 0 } }] }),
  ],
  ['seed.generate.files', [0, -1, 2 ** 31, 2 ** 31 + 1, 1.5], (v) => ({ seed: { generate: { files: v, size: 1 } } })],
  [
    'seed.generate.folders',
    [0, 2 ** 31 + 1],
    (v) => ({ seed: { generate: { files: 1, folders: v, depth: 1, size: 1 } } }),
  ],
  ['seed.generate.depth', [0, 1, 2 ** 31 + 1], (v) => ({ seed: { generate: { files: 1, depth: v, size: 1 } } })],
  [
    'seed.generate.size',
    [
      0,
      -1,
      '200KB',
      '1 TiB',
      '1.1 TiB',
      1099511627776,
      1099511627777,
      'abc',
      '1.5 MiB',
      '1 tb',
      '1 B/s',
      ' 7 ',
      `${'0'.repeat(15)}1 B`,
      '1.5.5 KB',
    ],
    (v) => ({ seed: { generate: { files: 1, size: v } } }),
  ],
  [
    'seed.generate.seed',
    [0, -1, 4294967295, 4294967296],
    (v) => ({ seed: { generate: { files: 1, size: 1, seed: v } } }),
  ],
  [
    'seed.generate.maxMemory',
    [0, '1 GiB', 'abc', '2 TiB'],
    (v) => ({ seed: { generate: { files: 1, size: 1, maxMemory: v } } }),
  ],
  ['seed.users', [{ a: 'b' }, { '': 'b' }, { 'a:b': 'c' }], (v) => ({ seed: { users: v } })],
  ['name', ['a', 'a b', '-a', 'a/b', ''], (v) => ({ name: v })],
  [
    'seed.tree[0].file',
    [
      'a.txt',
      '',
      'a/b',
      'a\\b',
      '.',
      '..',
      ' ',
      'a\uFFFE',
      'a\uFFFF',
      'a\u0001',
      'a\uD800',
      'x'.repeat(255),
      'x'.repeat(256),
      '\u{1F600}'.repeat(128),
    ],
    (v) => ({ seed: { tree: [{ file: v, text: 'x' }] } }),
  ],
];

/**
 * What the schema's language cannot say, so the loader alone refuses, naming the field: a time that depends on
 * the moment (an offset that would take the clock past 9999), a date that is not in the calendar, a size or
 * duration with a unit past its range, the rules between two fields, and a name's length in UTF-16 units.
 */
const ONLY_THE_LOADER: string[] = [
  'clock.offset=253402300799999',
  'clock.offset="99999999999d"',
  'clock.frozen="2025-13-45T00:00:00Z"',
  'latency.median="99999999999d"',
  'latency.p99="99999999999d"',
  'faults[0].slice.jitterBytes=10',
  'seed.generate.size="1.1 TiB"',
  'seed.generate.maxMemory="2 TiB"',
  `seed.tree[0].file=${JSON.stringify('\u{1F600}'.repeat(128))}`,
];

describe('every pattern, enum and bound of the scenario schema gives the loader’s verdict', () => {
  const cases = EDGES.flatMap(([field, values, make]) =>
    values.map((v) => [`${field}=${JSON.stringify(v)}`, field, make(v)] as const),
  );
  it.each(cases)('%s: the schema and loadScenario agree', async (label, field, scenario) => {
    let loader = 'accepted';
    try {
      await loadScenario(structuredClone(scenario) as ScenarioDefinition, tmpdir(), SCENARIO_SECTIONS);
    } catch (err) {
      // A refusal names the field; anything else (a crash) fails here.
      expect(err).toBeInstanceOf(ScenarioError);
      expect((err as Error).message).toContain(field.replace(/\[0\]\.file$/, '[0]').split('=')[0]);
      loader = 'refused';
    }
    const bySchema = validScenario(scenario) ? 'accepted' : 'refused';
    if (ONLY_THE_LOADER.includes(label)) expect([bySchema, loader]).toEqual(['accepted', 'refused']);
    else expect(loader).toBe(bySchema);
  });
});
