import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MIB = 1024 * 1024;
/** Body bytes streamed into blobs between two minor GCs. */
export const SCAVENGE_EVERY_BYTES = 8 * MIB;

type Scavenge = () => void;

let streamed = 0;
/** undefined until first needed; null when this V8 offers no way to ask for a minor GC. */
let scavenge: Scavenge | null | undefined;

/**
 * Counts body bytes as they stream into a blob and asks V8 for a minor GC (a scavenge) after every
 * SCAVENGE_EVERY_BYTES. Node's HTTP parser copies every body chunk into a new Buffer; they die at
 * once, but V8 scavenges for such memory only when 32 MiB of it is young (twice its largest
 * semi-space), so a large upload kept up to 32 MiB of dead chunks and grew RSS by 0-35 MiB, depending
 * on what malloc had kept from before. A scavenge of a small young generation takes well under 1 ms.
 */
export function countStreamedBytes(bytes: number): void {
  streamed += bytes;
  if (streamed < SCAVENGE_EVERY_BYTES) return;
  streamed = 0;
  scavenge ??= minorCollector();
  scavenge?.();
}

/**
 * The `gc` function of V8's GC extension, with {type: 'minor'}: the process's own one under
 * --expose-gc, else one made for a throwaway context (the flag is set only while that context is made,
 * so no other global gains a `gc`).
 */
function minorCollector(): Scavenge | null {
  try {
    let gc: unknown = (globalThis as { gc?: unknown }).gc;
    if (typeof gc !== 'function') {
      setFlagsFromString('--expose-gc');
      try {
        gc = runInNewContext('gc');
      } finally {
        setFlagsFromString('--no-expose-gc');
      }
    }
    if (typeof gc !== 'function') return null;
    const collect = gc as (options: { type: 'minor' }) => void;
    return () => {
      try {
        collect({ type: 'minor' });
      } catch {
        scavenge = null;
      }
    };
  } catch {
    return null;
  }
}
