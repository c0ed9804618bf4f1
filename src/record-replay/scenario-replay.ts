import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReplayHandlerFactory } from '../scenarios/types.js';
import { readRecording } from './recording-io.js';
import { createReplayHandler } from './replayer.js';

/** The recordings shipped with the package (beside scenarios/). */
export const BUILTIN_RECORDINGS_DIR = fileURLToPath(new URL('../../recordings/', import.meta.url));

/** A scenario's "recording" is a name: recordings/NAME.json in the working directory, else the built-in one. */
export function findRecording(name: string, cwd: string): string {
  const candidates = [join(cwd, 'recordings', `${name}.json`), join(BUILTIN_RECORDINGS_DIR, `${name}.json`)];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`recording "${name}" not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** Replays the recording a scenario names, strictly: a miss is a clear text/plain error. */
export function scenarioReplayFactory(ctx: { cwd: string; publicUrl?: string; log: (line: string) => void }): ReplayHandlerFactory {
  return async (name) => {
    const recording = await readRecording(findRecording(name, ctx.cwd));
    return createReplayHandler(recording, { onMiss: 'error', publicUrl: ctx.publicUrl, log: ctx.log });
  };
}
