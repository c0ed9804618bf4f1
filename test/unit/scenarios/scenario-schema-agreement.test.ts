// The published scenario schema and the code's own checks give one verdict: a value the schema lets through
// is one the code can use, and the reverse (a rate "1 TB/s" was read by the code and refused by the schema).
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bytesPerSecond } from '../../../src/scenarios/byte-rate.js';
import { SCHEMA_FILE } from '../../../src/scenarios/catalog.js';
import type { ByteRate } from '../../../src/scenarios/types.js';

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
