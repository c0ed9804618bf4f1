import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { FileAccessError, containedPath, maxFileBytes, readContainedFile } from '../files/contained-file.js';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RECORDING_VERSION_DOCUMENT,
  type Exchange,
  type Recording,
  type RecordingDocument,
  type RecordingHeader,
  type StoredBody,
  type StoredExchange,
} from './format.js';
import { redactedNames } from './redaction.js';

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

function checkHeader(value: unknown, file: string): RecordingHeader {
  const h = value as Partial<RecordingHeader> | null;
  if (typeof h !== 'object' || h === null || h.format !== RECORDING_FORMAT)
    throw new RecordingError(file, `not a csp-mock recording (format is not "${RECORDING_FORMAT}")`);
  if (h.version !== RECORDING_VERSION && h.version !== RECORDING_VERSION_DOCUMENT) {
    throw new RecordingError(
      file,
      `recording version ${String(h.version)} is not supported (this build reads ${RECORDING_VERSION_DOCUMENT} and ${RECORDING_VERSION})`,
    );
  }
  // The built-in names are always redacted, whatever the file lists (a hand-made file may list none).
  return {
    format: RECORDING_FORMAT,
    version: h.version,
    baseUrl: '{{baseUrl}}',
    redacted: redactedNames(Array.isArray(h.redacted) ? h.redacted.filter((n) => typeof n === 'string') : []),
  };
}

/** An HTTP token (methods, header names): nothing that could end a request line or a header early. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const PATH = /^\/[^\u0000-\u0020\u007f]*$/;

const isHeaderMap = (v: unknown): boolean =>
  v === undefined ||
  (typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(
      ([name, x]) =>
        TOKEN.test(name) && (typeof x === 'string' || (Array.isArray(x) && x.every((y) => typeof y === 'string'))),
    ));

function checkExchange(value: unknown, file: string, where: string): StoredExchange {
  const e = value as Partial<StoredExchange> | null;
  const problem = (what: string): never => {
    throw new RecordingError(file, `${where}: ${what}`);
  };
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return problem('an exchange must be a JSON object');
  if (!Number.isSafeInteger(e.id)) problem('needs an integer id');
  if (!e.request || typeof e.request.method !== 'string' || !TOKEN.test(e.request.method))
    problem('needs a request.method (an HTTP token)');
  if (typeof e.request!.path !== 'string' || !PATH.test(e.request!.path))
    problem('needs a request.path starting with / without spaces or control characters');
  if (!e.response || !Number.isInteger(e.response.status) || e.response.status < 100 || e.response.status > 599)
    problem('needs a response.status from 100 to 599');
  if (!isHeaderMap(e.request!.headers) || !isHeaderMap(e.response!.headers))
    problem('headers must map names to strings');
  const query = e.request!.query;
  if (
    query !== undefined &&
    !(
      Array.isArray(query) &&
      query.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string'))
    )
  )
    problem('request.query must be [name, value] pairs');
  return e as StoredExchange;
}

/** Parses a recording's text: JSON lines (version 2) or one document (version 1). */
export function parseRecordingText(text: string, file: string): RecordingDocument {
  const firstLineEnd = text.indexOf('\n');
  const firstLine = firstLineEnd < 0 ? text : text.slice(0, firstLineEnd);
  let first: unknown;
  try {
    first = JSON.parse(firstLine);
  } catch {
    first = undefined;
  }
  // Version 1: one document (pretty-printed, or all on one line).
  if (first === undefined || (first as { version?: unknown }).version === RECORDING_VERSION_DOCUMENT)
    return parseDocument(text, file);
  const header = checkHeader(first, file);
  const lines = text.slice(firstLine.length + 1).split('\n');
  // A recorder killed mid-write leaves a torn last line without its newline: that exchange is lost, the rest stands.
  if (!text.endsWith('\n') && lines.length > 0) lines.pop();
  const exchanges: StoredExchange[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Never the parser's message: it quotes the line.
      throw new RecordingError(file, `line ${i + 2}: not valid JSON`);
    }
    exchanges.push(checkExchange(value, file, `line ${i + 2}`));
  });
  return { ...header, exchanges };
}

function parseDocument(text: string, file: string): RecordingDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new RecordingError(file, 'not JSON (neither a version 2 recording, JSON lines, nor a version 1 document)');
  }
  const header = checkHeader(doc, file);
  const exchanges = (doc as { exchanges?: unknown }).exchanges;
  if (!Array.isArray(exchanges)) throw new RecordingError(file, '"exchanges" must be an array');
  return { ...header, exchanges: exchanges.map((e, i) => checkExchange(e, file, `exchanges[${i}]`)) };
}

/** Reads a recording's header and stored exchanges (sidecars not read), refusing a file over the size cap. */
export async function readRecordingDocument(file: string): Promise<RecordingDocument> {
  const absolute = resolve(file);
  try {
    return parseRecordingText((await readContainedFile(absolute)).toString('utf8'), absolute);
  } catch (err) {
    if (err instanceof FileAccessError) throw new RecordingError(absolute, err.message.slice(absolute.length + 2));
    throw err;
  }
}

/** Reads a recording file and its sidecars; bodies come back as bytes. */
export async function readRecording(file: string): Promise<Recording> {
  const absolute = resolve(file);
  const doc = await readRecordingDocument(absolute);
  const sidecars = new SidecarReader(absolute);
  const exchanges: Exchange[] = [];
  for (const e of doc.exchanges) {
    exchanges.push({
      id: e.id,
      ...(e.user !== undefined && { user: e.user }),
      ...(e.session !== undefined && { session: e.session }),
      request: {
        ...e.request,
        query: e.request.query ?? [],
        headers: e.request.headers ?? {},
        body: await sidecars.load(e.request.body, `exchange ${e.id} request`),
      },
      response: {
        ...e.response,
        headers: e.response.headers ?? {},
        body: await sidecars.load(e.response.body, `exchange ${e.id} response`),
      },
    });
  }
  return { file: absolute, redacted: doc.redacted, exchanges };
}

/**
 * Reads bodies for one recording: a sidecar must be a regular file inside `<name>.bodies/` (symlinks
 * resolved), of the size the recording states and with its sha256; all bodies together stay under
 * the size cap, since a replay holds them in memory.
 */
export class SidecarReader {
  readonly #file: string;
  readonly #folder: string;
  readonly #cap = maxFileBytes();
  #total = 0;

  constructor(recordingFile: string) {
    this.#file = recordingFile;
    this.#folder = join(dirname(recordingFile), sidecarDirName(recordingFile));
  }

  async load(body: StoredBody | undefined, what: string): Promise<Buffer> {
    const bytes = await this.#bytesOf(body, what);
    this.#total += bytes.length;
    if (this.#total > this.#cap)
      throw new RecordingError(this.#file, `bodies total more than ${this.#cap} bytes (CSP_MOCK_MAX_FILE_BYTES)`);
    return bytes;
  }

  async #bytesOf(body: StoredBody | undefined, what: string): Promise<Buffer> {
    if (!body) return Buffer.alloc(0);
    if ('text' in body && typeof body.text === 'string') return Buffer.from(body.text, 'utf8');
    if ('base64' in body && typeof body.base64 === 'string') return Buffer.from(body.base64, 'base64');
    if (
      !('file' in body) ||
      typeof body.file !== 'string' ||
      !Number.isSafeInteger(body.bytes) ||
      typeof body.sha256 !== 'string'
    ) {
      throw new RecordingError(this.#file, `${what}: a body is { text }, { base64 } or { file, bytes, sha256 }`);
    }
    const refuse = (problem: string): never => {
      throw new RecordingError(this.#file, `${what}: sidecar "${body.file}" ${problem}`);
    };
    const path = sidecarPath(this.#folder, body.file);
    if (body.bytes > this.#cap - this.#total)
      refuse(`of ${body.bytes} bytes is over the limit of ${this.#cap} (CSP_MOCK_MAX_FILE_BYTES)`);
    try {
      await containedPath(path, this.#folder);
      const info = await stat(path);
      if (info.isFile() && info.size !== body.bytes) refuse(`is ${info.size} bytes, the recording says ${body.bytes}`);
      const bytes = await readContainedFile(path, { within: this.#folder, maxBytes: body.bytes });
      if (createHash('sha256').update(bytes).digest('hex') !== body.sha256) refuse('does not match its sha256');
      return bytes;
    } catch (err) {
      if (err instanceof FileAccessError)
        return refuse(
          err.message
            .slice(path.length + 2)
            .replace(/\(files may only be named inside it\)/, '(sidecars stay inside it)'),
        );
      throw err;
    }
  }
}
