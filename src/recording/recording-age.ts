import { parseDuration, UNIT_MS } from '../clock/durations.js';
import { scanRecording } from './recording-read.js';

/** A maximum age as the user writes it: a positive duration as the clock reads them, e.g. "30d", "1.5d", "1h30m". */
export function parseMaxAge(text: string): number {
  let ms = Number.NaN;
  try {
    ms = parseDuration(text);
  } catch {
    // the message below says what --max-age takes
  }
  if (ms > 0) return ms;
  throw new Error(
    `--max-age must be a positive duration with a unit (ms, s, m, h, d or w), e.g. 30d, 1.5d or 12h; got "${text}"`,
  );
}

/** "3 days", "5 hours": the largest unit that fits, for the one line a stale recording gets. */
function describeAge(ms: number): string {
  for (const [unit, size] of [
    ['week', UNIT_MS.w],
    ['day', UNIT_MS.d],
    ['hour', UNIT_MS.h],
    ['minute', UNIT_MS.m],
  ] as const) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  return `${Math.floor(ms / 1000)} seconds`;
}

/** A recording too old (or of unknown age) for --max-age; the message is the one line the user sees. */
export class StaleRecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaleRecordingError';
  }
}

/**
 * Refuses a recording older than `maxAgeMs`, or one without a creation time (made before recordings
 * kept one): for CI, an unknown age is not a fresh one. Reads and checks the whole file, as replay would.
 */
export async function checkRecordingAge(
  file: string,
  maxAgeMs: number,
  maxAgeText: string,
  now: number = Date.now(),
): Promise<void> {
  const { header } = await scanRecording(file, () => undefined);
  if (header.created === undefined) {
    throw new StaleRecordingError(
      `${file}: the recording has no creation time (it was made before csp-mock kept one), so its age is unknown and --max-age ${maxAgeText} refuses it; record it again`,
    );
  }
  const age = now - Date.parse(header.created);
  if (age > maxAgeMs) {
    throw new StaleRecordingError(
      `${file}: the recording was made ${header.created}, ${describeAge(age)} ago, older than --max-age ${maxAgeText}; record it again`,
    );
  }
}
