import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReplayHandlerFactory } from '../scenarios/types.js';
import { readRecording } from '../recording/recording-io.js';
import { closestName } from '../scenarios/closest-name.js';
import { createReplayHandler } from './replayer.js';

/** The recordings shipped with the package (beside scenarios/). */
export const BUILTIN_RECORDINGS_DIR = fileURLToPath(new URL('../../recordings/', import.meta.url));

/** Recordings are written as JSON lines (.jsonl); earlier ones, named .json, are still read. */
const RECORDING_EXTENSIONS = ['.jsonl', '.json'];

/** A path unless it is a bare name (no slash, no .jsonl or .json ending). */
function isRecordingPath(spec: string): boolean {
  return /[\\/]/.test(spec) || RECORDING_EXTENSIONS.some((ext) => spec.endsWith(ext));
}

/** The file itself if it exists, else the first of its .jsonl and .json namesakes that does. */
function withExtension(file: string): string[] {
  return [file, ...RECORDING_EXTENSIONS.map((ext) => `${file}${ext}`)];
}

/**
 * The file a recording spec names: a path resolves against `baseDir` (without an extension, its
 * .jsonl or .json namesake); a name is recordings/NAME.jsonl or NAME.json under `baseDir`, else the
 * package's own (so `example-session` works in any project).
 */
export function locateRecording(spec: string, baseDir: string): string {
  if (isRecordingPath(spec)) {
    const file = resolve(baseDir, spec);
    const found = (isRecordingPath(basename(file)) ? [file] : withExtension(file)).find((c) => existsSync(c));
    if (!found) throw new Error(`recording ${file} not found`);
    return found;
  }
  const candidates = [join(baseDir, 'recordings'), BUILTIN_RECORDINGS_DIR].flatMap((dir) =>
    RECORDING_EXTENSIONS.map((ext) => join(dir, `${spec}${ext}`)),
  );
  const found = candidates.find((c) => existsSync(c));
  if (found) return found;
  const near = closestName(spec, recordingNames(baseDir));
  throw new Error(
    `no recording named ${JSON.stringify(spec.length > 80 ? `${spec.slice(0, 80)}…` : spec)}${near ? `; did you mean "${near}"?` : ''} (looked in ${join(baseDir, 'recordings')} and ${BUILTIN_RECORDINGS_DIR})`,
  );
}

/** The names of the recordings in ./recordings and the package's own. */
function recordingNames(baseDir: string): string[] {
  const names: string[] = [];
  for (const dir of [join(baseDir, 'recordings'), BUILTIN_RECORDINGS_DIR]) {
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of files) {
      const ext = RECORDING_EXTENSIONS.find((e) => file.endsWith(e));
      if (ext) names.push(file.slice(0, -ext.length));
    }
  }
  return names;
}

/** Replays the recording a scenario names, strictly: a miss is a clear text/plain error. */
export function scenarioReplayFactory(ctx: {
  cwd: string;
  publicUrl?: string;
  mountPath?: string;
  log: (line: string) => void;
}): ReplayHandlerFactory {
  return async (name) => {
    const recording = await readRecording(locateRecording(name, ctx.cwd), { lazyBodies: true });
    return createReplayHandler(recording, {
      onMiss: 'error',
      publicUrl: ctx.publicUrl,
      mountPath: ctx.mountPath,
      log: ctx.log,
    });
  };
}
