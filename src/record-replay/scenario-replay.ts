import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReplayHandlerFactory } from '../scenarios/types.js';
import { readRecording } from './recording-io.js';
import { createReplayHandler } from './replayer.js';

/** The recordings shipped with the package (beside scenarios/). */
export const BUILTIN_RECORDINGS_DIR = fileURLToPath(new URL('../../recordings/', import.meta.url));

/**
 * Where a scenario's "recording" points: a path (relative to the scenario file, then the working
 * directory), or a name looked up as recordings/NAME.json in the working directory, then built in.
 */
export function findRecording(name: string, scenarioSource: string, cwd: string): string {
  const candidates: string[] = [];
  if (name.includes('/') || name.includes('\\') || name.endsWith('.json')) {
    if (isAbsolute(name)) candidates.push(name);
    else {
      if (isAbsolute(scenarioSource)) candidates.push(resolve(dirname(scenarioSource), name));
      candidates.push(resolve(cwd, name));
    }
  } else {
    candidates.push(join(cwd, 'recordings', `${name}.json`), join(BUILTIN_RECORDINGS_DIR, `${name}.json`));
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`recording "${name}" not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** Replays the recording a scenario names, strictly: a miss is a clear text/plain error. */
export function scenarioReplayFactory(ctx: { cwd: string; publicUrl?: string; log: (line: string) => void }): ReplayHandlerFactory {
  return async (name, scenario) => {
    const recording = await readRecording(findRecording(name, scenario.source, ctx.cwd));
    return createReplayHandler(recording, { onMiss: 'error', publicUrl: ctx.publicUrl, log: ctx.log });
  };
}
