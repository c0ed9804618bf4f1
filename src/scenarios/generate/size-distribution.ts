import { MAX_BYTE_SIZE } from '../byte-units.js';

/** How large generated files are: all one size, uniform between two, or log-normal (most small, a long tail). */
export type SizeDistribution =
  | { kind: 'fixed'; bytes: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'log-normal'; median: number; p99: number; max: number | undefined };

/** The largest size a generated file may have (nothing is stored, but a client may still read it). */
const MAX_FILE_BYTES = MAX_BYTE_SIZE;

/** The standard normal's 99th percentile: p99 = median * exp(sigma * Z99). */
const Z99 = 2.3263478740408408;

/**
 * The size of file number `index` (0-based) under `seed`: a pure function of the two, so a file's size
 * does not depend on which others exist or in which order they are made. Math.exp, log and cos are
 * V8's own (fdlibm) on every platform, so sizes agree across machines.
 */
export function sizeSampler(size: SizeDistribution, seed: number): (index: number) => number {
  if (size.kind === 'fixed') return () => size.bytes;
  if (size.kind === 'uniform') {
    const span = size.max - size.min + 1;
    return (index) => size.min + Math.floor(unitRandom(seed, index, 0) * span);
  }
  const mu = Math.log(size.median);
  const sigma = (Math.log(size.p99) - mu) / Z99;
  const max = size.max ?? MAX_FILE_BYTES;
  return (index) => {
    // Box-Muller: two uniform draws make one standard normal one.
    const u1 = 1 - unitRandom(seed, index, 1);
    const u2 = unitRandom(seed, index, 2);
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.min(max, Math.round(Math.exp(mu + sigma * z)));
  };
}

/** A uniform number in [0, 1) from (seed, index, stream): a few rounds of integer mixing (splitmix32-like). */
export function unitRandom(seed: number, index: number, stream: number): number {
  return mix32(mix32(seed ^ Math.imul(stream + 1, 0x9e3779b9)) ^ mix32(index) ^ Math.floor(index / 2 ** 32)) / 2 ** 32;
}

/** A 32-bit integer hash (Math.imul keeps it exact on every machine). */
function mix32(value: number): number {
  let x = value >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}
