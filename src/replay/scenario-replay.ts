import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReplayHandlerFactory } from '../scenarios/types.js';
import { readRecording } from '../recording/recording-io.js';
import { createReplayHandler } from './replayer.js';

/** The recordings shipped with the package (beside scenarios/). */
export const BUILTIN_RECORDINGS_DIR = fileURLToPath(new URL('../../recordings/', import.meta.url));

/** A path unless it is a bare name (no slash, no .json ending). */
function isRecordingPath(spec: string): boolean {
  return /[\\/]/.test(spec) || spec.endsWith('.json');
}

/**
 * The file a recording spec names: a path resolves against `baseDir`; a name is recordings/NAME.json
 * under `baseDir`, else the package's own (so `example-session` works in any project).
 */
export function locateRecording(spec: string, baseDir: string): string {
  if (isRecordingPath(spec)) {
    const file = resolve(baseDir, spec);
    if (!existsSync(file)) throw new Error(`recording ${file} not found`);
    return file;
  }
  const candidates = [join(baseDir, 'recordings', `${spec}.json`), join(BUILTIN_RECORDINGS_DIR, `${spec}.json`)];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`recording "${spec}" not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** Replays the recording a scenario names, strictly: a miss is a clear text/plain error. */
export function scenarioReplayFactory(ctx: {
  cwd: string;
  publicUrl?: string;
  log: (line: string) => void;
}): ReplayHandlerFactory {
  return async (name) => {
    const recording = await readRecording(locateRecording(name, ctx.cwd));
    return createReplayHandler(recording, { onMiss: 'error', publicUrl: ctx.publicUrl, log: ctx.log });
  };
}
