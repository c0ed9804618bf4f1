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
function estimatedBytes(plan: GeneratePlan, users: number): number {
  return (plan.files + plan.folders + 1) * users * ESTIMATED_BYTES_PER_OBJECT;
}

/** What the check reads of the heap (node:v8's statistics; a test passes its own). */
export type HeapFigures = Pick<ReturnType<typeof getHeapStatistics>, 'heap_size_limit' | 'used_heap_size'>;

/**
 * Throws one error naming the numbers when the account is estimated to need more than `maxMemory`
 * (default: what the JavaScript heap still has free: other mocks of this process, tenants or the state
 * being replaced by a switch, hold the rest, and past it the process would die rather than answer).
 */
export function checkGeneratedMemory(plan: GeneratePlan, users: number, heap: HeapFigures = getHeapStatistics()): void {
  const limit = plan.maxMemory ?? Math.max(0, heap.heap_size_limit - heap.used_heap_size);
  const need = estimatedBytes(plan, users);
  if (need <= limit) return;
  const who = users === 1 ? 'one user' : `${users} users`;
  throw new GenerateSpecError(
    plan.maxMemory === undefined ? 'files' : 'maxMemory',
    `${plan.files} files and ${plan.folders} folders for ${who} need about ${bytesText(need)} ` +
      `(${ESTIMATED_BYTES_PER_OBJECT} bytes per object), more than ` +
      (plan.maxMemory === undefined
        ? `the ${bytesText(limit)} the JavaScript heap has free; `
        : `maxMemory of ${bytesText(limit)}; `) +
      `generate fewer objects or raise maxMemory (serve --max-memory)`,
  );
}
