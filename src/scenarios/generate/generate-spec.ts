import { checkName } from '../../domain/names.js';
import { parseByteSize } from '../byte-units.js';
import type { SizeDistribution } from './size-distribution.js';

/**
 * A generated account as written (a scenario's `seed.generate`, `serve --generate`, `startMock({ generate })`):
 * how many folders and files, how deep, how large, how named, and the seed that makes it the same
 * account every time.
 */
export interface GenerateSpec {
  /** Files in all, spread evenly over the folders (over the root when there are none). */
  files?: number;
  /** Or: this many files in every folder (in the root when there are none). */
  filesPerFolder?: number;
  /** Folders in all (default 0: every file in the root). */
  folders?: number;
  /** The deepest folder level (default 3; at least 1 when there are folders). */
  depth?: number;
  /** "4KiB" or 4096 (every file), { min, max } (uniform) or { median, p99 } (log-normal). Default 1 KiB. */
  size?:
    | number
    | string
    | { min: number | string; max: number | string }
    | { median: number | string; p99: number | string; max?: number | string };
  /** Name patterns: {n} is the folder's or file's number (1, 2, ...), {ext} the file's extension (".jpg"). */
  names?: { folder?: string; file?: string };
  /** Types the files get (each file one of them, drawn by the seed); the extension follows. Default application/octet-stream. */
  mimeTypes?: string[];
  /** The same seed gives the same tree, ids and bytes on every machine (default 1). */
  seed?: number;
  /** Refuse an account whose estimated memory exceeds this ("2GiB" or bytes; default: what the JavaScript heap has free). */
  maxMemory?: number | string;
}

/** A checked spec with every default filled in. */
export interface GeneratePlan {
  files: number;
  folders: number;
  depth: number;
  size: SizeDistribution;
  folderName: string;
  fileName: string;
  mimeTypes: string[];
  seed: number;
  maxMemory: number | undefined;
}

/** A problem with one field of a spec; `field` is relative to the spec ("size.p99"). */
export class GenerateSpecError extends Error {
  readonly field: string;
  readonly problem: string;
  constructor(field: string, problem: string) {
    super(`generate${field ? `.${field}` : ''}: ${problem}`);
    this.name = 'GenerateSpecError';
    this.field = field;
    this.problem = problem;
  }
}

const KNOWN = new Set([
  'files',
  'filesPerFolder',
  'folders',
  'depth',
  'size',
  'names',
  'mimeTypes',
  'seed',
  'maxMemory',
]);
/** Generous bounds: a count past these is a typo, and ids hold 42 bits of number. */
const MAX_COUNT = 2 ** 31;
const MAX_SEED = 2 ** 32 - 1;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** Checks a spec and fills in the defaults; throws GenerateSpecError naming the first bad field. */
export function resolveGenerateSpec(given: unknown): GeneratePlan {
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new GenerateSpecError('', 'must be an object such as {"files": 1000, "folders": 20}');
  const spec = given as Record<string, unknown>;
  for (const key of Object.keys(spec)) {
    if (!KNOWN.has(key)) throw new GenerateSpecError(key, `is not a generate field (known: ${[...KNOWN].join(', ')})`);
  }
  const folders = count(spec, 'folders') ?? 0;
  const depth = count(spec, 'depth') ?? Math.min(3, folders);
  if (folders > 0 && depth === 0) throw new GenerateSpecError('depth', `must be at least 1 with ${folders} folders`);
  const perFolder = count(spec, 'filesPerFolder');
  const total = count(spec, 'files');
  if (perFolder !== undefined && total !== undefined)
    throw new GenerateSpecError('filesPerFolder', 'give files (in all) or filesPerFolder, not both');
  const files = total ?? (perFolder ?? 0) * Math.max(1, folders);
  if (files > MAX_COUNT) throw new GenerateSpecError('filesPerFolder', `makes ${files} files, more than ${MAX_COUNT}`);
  const seed = spec['seed'] ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)
    throw new GenerateSpecError('seed', `must be a whole number from 0 to ${MAX_SEED}, got ${JSON.stringify(seed)}`);
  const names = spec['names'] ?? {};
  if (typeof names !== 'object' || names === null || Array.isArray(names))
    throw new GenerateSpecError('names', 'must be an object such as {"folder": "album-{n}", "file": "photo-{n}{ext}"}');
  const { folder = 'folder-{n}', file = 'file-{n}{ext}', ...other } = names as Record<string, unknown>;
  const extra = Object.keys(other)[0];
  if (extra !== undefined) throw new GenerateSpecError(`names.${extra}`, 'is not a names field (known: folder, file)');
  return {
    files,
    folders,
    depth,
    size: sizeOf(spec['size']),
    folderName: namePattern(folder, 'names.folder', false),
    fileName: namePattern(file, 'names.file', true),
    mimeTypes: mimeTypesOf(spec['mimeTypes']),
    seed,
    maxMemory: spec['maxMemory'] === undefined ? undefined : byteSize(spec['maxMemory'], 'maxMemory'),
  };
}

function count(spec: Record<string, unknown>, field: string): number | undefined {
  const value = spec[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new GenerateSpecError(field, `must be a whole number >= 0, got ${JSON.stringify(value)}`);
  if (value > MAX_COUNT) throw new GenerateSpecError(field, `must be at most ${MAX_COUNT}, got ${value}`);
  return value;
}

function byteSize(value: unknown, field: string): number {
  const bytes = parseByteSize(value);
  if (bytes === undefined)
    throw new GenerateSpecError(
      field,
      `must be a byte size such as 4096, "200KB" or "1.5 MiB", got ${JSON.stringify(value)}`,
    );
  return bytes;
}

function sizeOf(value: unknown): SizeDistribution {
  if (value === undefined) return { kind: 'fixed', bytes: 1024 };
  if (typeof value === 'number' || typeof value === 'string') return { kind: 'fixed', bytes: byteSize(value, 'size') };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new GenerateSpecError('size', 'must be a byte size, {"min", "max"} or {"median", "p99"}');
  const fields = value as Record<string, unknown>;
  const keys = Object.keys(fields).sort().join(',');
  if (keys === 'max,min') {
    const min = byteSize(fields['min'], 'size.min');
    const max = byteSize(fields['max'], 'size.max');
    if (max < min) throw new GenerateSpecError('size.max', `must not be below min (${min}), got ${max}`);
    return { kind: 'uniform', min, max };
  }
  if (keys === 'median,p99' || keys === 'max,median,p99') {
    const median = byteSize(fields['median'], 'size.median');
    const p99 = byteSize(fields['p99'], 'size.p99');
    if (median < 1) throw new GenerateSpecError('size.median', 'must be at least 1 byte for a log-normal size');
    if (p99 < median) throw new GenerateSpecError('size.p99', `must not be below the median (${median}), got ${p99}`);
    const max = fields['max'] === undefined ? undefined : byteSize(fields['max'], 'size.max');
    if (max !== undefined && max < p99)
      throw new GenerateSpecError('size.max', `must not be below p99 (${p99}), got ${max}`);
    return { kind: 'log-normal', median, p99, max };
  }
  throw new GenerateSpecError(
    'size',
    `must be a byte size, {"min", "max"} or {"median", "p99"[, "max"]}, got fields ${keys || 'none'}`,
  );
}

/** A pattern with {n} (so names differ) and only known placeholders, whose names are valid names. */
function namePattern(value: unknown, field: string, withExt: boolean): string {
  if (typeof value !== 'string') throw new GenerateSpecError(field, `must be a string, got ${JSON.stringify(value)}`);
  if (!value.includes('{n}')) throw new GenerateSpecError(field, `must contain {n} so names differ, got "${value}"`);
  const unknown =
    /\{(?!n\}|ext\})[^}]*\}/.exec(value)?.[0] ?? (!withExt && value.includes('{ext}') ? '{ext}' : undefined);
  if (unknown)
    throw new GenerateSpecError(field, `has an unknown placeholder ${unknown} (known: {n}${withExt ? ', {ext}' : ''})`);
  try {
    checkName(value.replaceAll('{n}', String(MAX_COUNT)).replaceAll('{ext}', '.extension'));
  } catch (err) {
    throw new GenerateSpecError(field, `makes invalid names: ${(err as Error).message}`);
  }
  return value;
}

function mimeTypesOf(value: unknown): string[] {
  if (value === undefined) return ['application/octet-stream'];
  if (!Array.isArray(value) || value.length === 0)
    throw new GenerateSpecError('mimeTypes', 'must be a non-empty list such as ["image/jpeg", "text/plain"]');
  value.forEach((type, i) => {
    if (typeof type !== 'string' || !MIME.test(type))
      throw new GenerateSpecError(
        `mimeTypes[${i}]`,
        `must be a media type such as "image/jpeg", got ${JSON.stringify(type)}`,
      );
  });
  return (value as string[]).map((type) => type.toLowerCase());
}
