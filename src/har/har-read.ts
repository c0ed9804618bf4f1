import { FileAccessError, readContainedFile } from '../files/contained-file.js';
import { schemaCheck } from '../recording/file-schemas.js';
import type { Har } from './har-types.js';

/** A file that is not a HAR csp-mock can read, naming the file and the problem (never its contents). */
export class HarError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'HarError';
  }
}

/** HAR versions whose entries have the shape read here (1.1 and 1.2 differ only in optional fields). */
const READABLE_VERSIONS = ['1.1', '1.2'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const entryProblem = schemaCheck('har-entry.schema.json');

/** Checks a parsed document is a HAR of a version we read, with its entries' required parts. */
export function checkHar(doc: unknown, file: string): Har {
  if (!isObject(doc) || !isObject(doc['log'])) throw new HarError(file, 'not a HAR (no "log" object)');
  const log = doc['log'];
  const version = log['version'];
  if (typeof version !== 'string' || !READABLE_VERSIONS.includes(version))
    throw new HarError(
      file,
      `HAR version ${JSON.stringify(version ?? null)} is not supported (this build reads ${READABLE_VERSIONS.join(' and ')})`,
    );
  if (!Array.isArray(log['entries'])) throw new HarError(file, 'not a HAR (no "log.entries" list)');
  log['entries'].forEach((entry, i) => {
    const problem = entryProblem(entry, `log.entries[${i}]`);
    if (problem !== undefined) throw new HarError(file, problem);
  });
  return doc as unknown as Har;
}

/** Reads a HAR file (size-capped, regular files only) and checks it. */
export async function readHar(file: string): Promise<Har> {
  let bytes: Buffer;
  try {
    bytes = await readContainedFile(file);
  } catch (err) {
    if (err instanceof FileAccessError) throw new HarError(file, err.message.slice(file.length + 2));
    throw err;
  }
  let doc: unknown;
  try {
    // A BOM is what some tools put before the JSON; JSON.parse refuses it.
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    // Never the parser's message: it quotes the file.
    throw new HarError(file, 'not a HAR (not JSON)');
  }
  return checkHar(doc, file);
}
