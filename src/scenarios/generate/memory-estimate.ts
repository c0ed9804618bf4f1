import { getHeapStatistics } from 'node:v8';
import { GenerateSpecError, type GeneratePlan } from './generate-spec.js';

/**
 * A rough cost of one node in memory: its record, its share of the indexes, the strings it holds. It
 * is an estimate to refuse an account that cannot fit before building it, not a measure; the bench
 * (`npm run bench -- scale`) prints the real figure.
 */
export const ESTIMATED_BYTES_PER_OBJECT = 1024;

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const bytesText = (bytes: number): string =>
  bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${Math.ceil(bytes / MIB)} MiB`;

/** The memory a generated account is estimated to need, for this many users each holding one. */
export function estimatedBytes(plan: GeneratePlan, users: number): number {
  return (plan.files + plan.folders + 1) * users * ESTIMATED_BYTES_PER_OBJECT;
}

/**
 * Throws one error naming the numbers when the account is estimated to need more than `maxMemory`
 * (default: the JavaScript heap's limit, past which the process would die rather than answer).
 */
export function checkGeneratedMemory(plan: GeneratePlan, users: number): void {
  const limit = plan.maxMemory ?? getHeapStatistics().heap_size_limit;
  const need = estimatedBytes(plan, users);
  if (need <= limit) return;
  const who = users === 1 ? 'one user' : `${users} users`;
  throw new GenerateSpecError(
    plan.maxMemory === undefined ? 'files' : 'maxMemory',
    `${plan.files} files and ${plan.folders} folders for ${who} need about ${bytesText(need)} ` +
      `(${ESTIMATED_BYTES_PER_OBJECT} bytes per object), more than ${plan.maxMemory === undefined ? 'the JavaScript heap limit' : 'maxMemory'} ` +
      `of ${bytesText(limit)}; generate fewer objects or raise maxMemory (serve --max-memory)`,
  );
}
