import { describe, expect, it } from 'vitest';
import { parseGenerateShorthand } from '../../../src/scenarios/generate/generate-shorthand.js';
import { resolveGenerateSpec } from '../../../src/scenarios/generate/generate-spec.js';
import { branchingOf } from '../../../src/scenarios/generate/generated-tree.js';
import { checkGeneratedMemory, ESTIMATED_BYTES_PER_OBJECT } from '../../../src/scenarios/generate/memory-estimate.js';
import { parseByteSize } from '../../../src/scenarios/byte-units.js';
import { sizeSampler } from '../../../src/scenarios/generate/size-distribution.js';

describe('a generated account spec: checked, with one clear error per bad field', () => {
  it('fills in the defaults', () => {
    expect(resolveGenerateSpec({ files: 10 })).toEqual({
      files: 10,
      folders: 0,
      depth: 0,
      size: { kind: 'fixed', bytes: 1024 },
      folderName: 'folder-{n}',
      fileName: 'file-{n}{ext}',
      mimeTypes: ['application/octet-stream'],
      seed: 1,
      maxMemory: undefined,
    });
    expect(resolveGenerateSpec({ filesPerFolder: 3, folders: 4 })).toMatchObject({ files: 12, depth: 3 });
  });

  it.each([
    [{ files: -1 }, 'generate.files: must be a whole number >= 0, got -1'],
    [{ folders: 2.5 }, 'generate.folders: must be a whole number >= 0, got 2.5'],
    [{ folders: 10, depth: 0 }, 'generate.depth: must be at least 1 with 10 folders'],
    [
      { files: 5, size: 'ten megabytes' },
      'generate.size: must be a byte size such as 4096, "200KB" or "1.5 MiB", got "ten megabytes"',
    ],
    [{ size: { median: '200KB', p99: '2KB' } }, 'generate.size.p99: must not be below the median (200000), got 2000'],
    [{ size: { min: '2KB', max: '1KB' } }, 'generate.size.max: must not be below min (2000), got 1000'],
    [
      { size: { median: '1KB' } },
      'generate.size: must be a byte size, {"min", "max"} or {"median", "p99"[, "max"]}, got fields median',
    ],
    [{ files: 1, filesPerFolder: 1 }, 'generate.filesPerFolder: give files (in all) or filesPerFolder, not both'],
    [{ names: { file: 'same.bin' } }, 'generate.names.file: must contain {n} so names differ, got "same.bin"'],
    [{ names: { folder: 'a/{n}' } }, 'generate.names.folder: makes invalid names: name must not contain "/" or "\\"'],
    [{ names: { file: 'f-{i}{n}' } }, 'generate.names.file: has an unknown placeholder {i} (known: {n}, {ext})'],
    [{ mimeTypes: ['jpeg'] }, 'generate.mimeTypes[0]: must be a media type such as "image/jpeg", got "jpeg"'],
    [{ seed: -3 }, 'generate.seed: must be a whole number from 0 to 4294967295, got -3'],
    [{ file: 10 }, 'generate.file: is not a generate field'],
  ])('%j: %s', (spec, message) => {
    expect(() => resolveGenerateSpec(spec)).toThrow(message);
  });

  it('parses byte sizes in 1000s and 1024s, and refuses what is not one', () => {
    expect(parseByteSize('200KB')).toBe(200_000);
    expect(parseByteSize('1.5 MiB')).toBe(1_572_864);
    expect(parseByteSize(' 4096 ')).toBe(4096);
    expect(parseByteSize(7)).toBe(7);
    for (const bad of ['-1KB', '1 parsec', '', 'KB', -5, 1.5, '2 TiB', null])
      expect(parseByteSize(bad)).toBeUndefined();
  });

  it('reads the serve --generate shorthand, and JSON', () => {
    expect(parseGenerateShorthand('files=100000,folders=2000,seed=7,size=200KB~20MB')).toEqual({
      files: 100000,
      folders: 2000,
      seed: 7,
      size: { median: '200KB', p99: '20MB' },
    });
    expect(parseGenerateShorthand('files=3,size=1KB-4KB,mimeTypes=image/jpeg+text/plain,fileNames=p{n}{ext}')).toEqual({
      files: 3,
      size: { min: '1KB', max: '4KB' },
      mimeTypes: ['image/jpeg', 'text/plain'],
      names: { file: 'p{n}{ext}' },
    });
    expect(parseGenerateShorthand('{"files": 2}')).toEqual({ files: 2 });
    expect(() => parseGenerateShorthand('files')).toThrow(
      'generate: expects key=value pairs joined by commas, got "files"',
    );
  });

  it('refuses an account too large for the stated memory, naming the numbers', () => {
    const plan = resolveGenerateSpec({ files: 1_000_000, folders: 20_000, maxMemory: '512MiB' });
    const need = Math.ceil((1_020_001 * ESTIMATED_BYTES_PER_OBJECT) / 1024 ** 2);
    expect(() => checkGeneratedMemory(plan, 1)).toThrow(
      `generate.maxMemory: 1000000 files and 20000 folders for one user need about ${need < 1024 ? `${need} MiB` : `${(need / 1024).toFixed(1)} GiB`} (${ESTIMATED_BYTES_PER_OBJECT} bytes per object), more than maxMemory of 512 MiB; generate fewer objects or raise maxMemory (serve --max-memory)`,
    );
    expect(() => checkGeneratedMemory(resolveGenerateSpec({ files: 1000, maxMemory: '512MiB' }), 2)).not.toThrow();
  });

  it('without maxMemory an account must fit in what the heap has free, not in its whole limit (other mocks, tenants, hold the rest)', () => {
    const plan = resolveGenerateSpec({ files: 300_000 });
    const limit = 1024 ** 3;
    // About 293 MiB needed: it fits an empty 1 GiB heap, not one of which 800 MiB are used by mocks already running.
    expect(() =>
      checkGeneratedMemory(plan, 1, { heap_size_limit: limit, used_heap_size: 100 * 1024 ** 2 }),
    ).not.toThrow();
    expect(() => checkGeneratedMemory(plan, 1, { heap_size_limit: limit, used_heap_size: 800 * 1024 ** 2 })).toThrow(
      /generate\.files: 300000 files and 0 folders for one user need about 293 MiB .* more than the 224 MiB the JavaScript heap has free;/,
    );
  });
});

describe('generated sizes and folder shapes', () => {
  it('a log-normal size has about the stated median and p99, the same for the same seed', () => {
    const sample = sizeSampler({ kind: 'log-normal', median: 200_000, p99: 20_000_000, max: undefined }, 42);
    const sizes = Array.from({ length: 20_000 }, (_, i) => sample(i)).sort((a, b) => a - b);
    expect(sizes[10_000]! / 200_000).toBeGreaterThan(0.9);
    expect(sizes[10_000]! / 200_000).toBeLessThan(1.1);
    expect(sizes[19_800]! / 20_000_000).toBeGreaterThan(0.75);
    expect(sizes[19_800]! / 20_000_000).toBeLessThan(1.33);
    const again = sizeSampler({ kind: 'log-normal', median: 200_000, p99: 20_000_000, max: undefined }, 42);
    expect(Array.from({ length: 100 }, (_, i) => again(i))).toEqual(Array.from({ length: 100 }, (_, i) => sample(i)));
  });

  it('a uniform size stays within its bounds and reaches both ends', () => {
    const sample = sizeSampler({ kind: 'uniform', min: 10, max: 20 }, 1);
    const sizes = new Set(Array.from({ length: 2000 }, (_, i) => sample(i)));
    expect([...sizes].sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('fits the folders in the stated depth with the fewest children per folder', () => {
    expect(branchingOf(20_000, 6)).toBe(6);
    expect(branchingOf(3, 6)).toBe(1);
    expect(branchingOf(100, 1)).toBe(100);
    expect(branchingOf(14, 3)).toBe(2);
  });
});
