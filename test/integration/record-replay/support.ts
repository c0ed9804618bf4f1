import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecordingDocument } from '../../../src/recording/recording-io.js';
import type { RecordingDocument, StoredBody } from '../../../src/recording/format.js';
import type { SessionCredentials } from '../../support/example-client/client-session.js';

/** The checked-in recording made by `npm run record:example`. */
export const EXAMPLE_RECORDING = resolve(
  fileURLToPath(new URL('../../../recordings/example-session.jsonl', import.meta.url)),
);
export const RECORDINGS_DIR = resolve(EXAMPLE_RECORDING, '..');

/** Credentials distinctive enough that finding any of them in a file is a leak, not a coincidence. */
export const CREDS: SessionCredentials = {
  user: 'demo',
  password: 'pw-Zq8-never-recorded',
  cloudKey: 'ck-9f1e-never-recorded',
};
export const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Every form a credential could take in a file. */
export function secretsOf(creds: SessionCredentials): string[] {
  return [
    creds.password,
    creds.cloudKey,
    basic(creds.user, creds.password).slice('Basic '.length),
    Buffer.from(creds.password).toString('base64'),
  ];
}

export { useTempDir } from '../../helpers/temp-dir.js';

/** Paths of all files under a folder, recursively. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Which of `needles` occur in which files (as bytes, so binary sidecars count too). */
export async function findInFiles(dir: string, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const file of await filesUnder(dir)) {
    const bytes = await readFile(file);
    for (const n of needles) if (bytes.includes(Buffer.from(n))) hits.push(`${file}: ${n}`);
  }
  return hits;
}

/** Waits (bounded: at most 100 tries) until `probe` holds. */
export async function eventually(probe: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/** A recording as stored (header fields and exchanges), whichever format version the file is in. */
export async function readJson(file: string): Promise<RecordingDocument> {
  return readRecordingDocument(file);
}

/** A stored body's text, base64 or sidecar reference; undefined when the body is absent or stored another way. */
export function storedText(body: StoredBody | undefined): string | undefined {
  return body && 'text' in body ? body.text : undefined;
}
export function storedBase64(body: StoredBody | undefined): string | undefined {
  return body && 'base64' in body ? body.base64 : undefined;
}
export function storedSidecar(body: StoredBody | undefined): { file: string; bytes: number } | undefined {
  return body && 'file' in body ? body : undefined;
}
