import { basename, extname, join } from 'node:path';

/** The sidecar folder of a recording: recordings/session.jsonl -> recordings/session.bodies/. */
export function sidecarDirName(file: string): string {
  return `${basename(file, extname(file))}.bodies`;
}

/** A leading `<name>.bodies/` segment: what earlier recordings wrote before each sidecar's name. */
const LEGACY_FOLDER_SEGMENT = /^[^/\\]*\.bodies[/\\]/;

/**
 * Where a sidecar reference points: inside the recording's own bodies folder, so a renamed or copied
 * pair (`a.{jsonl,bodies}` -> `b.*`) keeps working. An earlier recording's reference starts with its
 * folder's name at the time (`my-session.bodies/10-request.bin`): that segment is dropped. Whatever
 * remains is still checked to stay inside the folder (`..` and symlinks that lead out are refused).
 */
export function sidecarPath(folder: string, reference: string): string {
  return join(folder, reference.replace(LEGACY_FOLDER_SEGMENT, ''));
}

/** A recording this build will not read, naming the file and the problem. */
export class RecordingError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'RecordingError';
  }
}
