import { resolve } from 'node:path';
import { FileAccessError, readContainedFile } from '../files/contained-file.js';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RECORDING_VERSION_DOCUMENT,
  type BodyFile,
  type Exchange,
  type Recording,
  type RecordingDocument,
  type RecordingHeader,
  type StoredBody,
  type StoredExchange,
} from './format.js';
import { forEachLine } from './recording-lines.js';
import { RecordingError } from './recording-names.js';
import { redactedNames } from '../http/redaction.js';
import { SidecarReader } from './sidecar-reader.js';
import { schemaCheck } from './file-schemas.js';
import { EMPTY_BODY, inlineBytes } from './body-encoding.js';

export { RecordingError, sidecarDirName, sidecarPath } from './recording-names.js';

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
  // A creation time that is not one is left out: the recording reads as of unknown age.
  const created = typeof h.created === 'string' && !Number.isNaN(Date.parse(h.created)) ? h.created : undefined;
  // The built-in names are always redacted, whatever the file lists (a hand-made file may list none).
  return {
    format: RECORDING_FORMAT,
    version: h.version,
    baseUrl: '{{baseUrl}}',
    redacted: redactedNames(Array.isArray(h.redacted) ? h.redacted.filter((n) => typeof n === 'string') : []),
    ...(created !== undefined && { created }),
  };
}

const exchangeProblem = schemaCheck('recording.schema.json');

/** An exchange checked against the published schema; `at` names it ("exchanges[3]"), `line` the line it is on. */
function checkExchange(value: unknown, file: string, at: string, line = ''): StoredExchange {
  const problem = exchangeProblem(value, at);
  if (problem !== undefined) throw new RecordingError(file, `${line}${problem}`);
  return value as StoredExchange;
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
  if (exchanges.length > MAX_EXCHANGES) throw tooMany(file, '"exchanges"');
  return { ...header, exchanges: exchanges.map((e, i) => checkExchange(e, file, `exchanges[${i}]`)) };
}

/**
 * The most exchanges a recording may hold. Replay keeps about 0.7 KiB of heap per exchange besides
 * its bodies (the exchange, its request key and indexes; measured: 70 MiB for 100,000 one-line
 * exchanges), so a recording of tiny exchanges well under the size cap could otherwise exhaust the heap.
 */
export const MAX_EXCHANGES = 100_000;

const tooMany = (file: string, where: string): RecordingError =>
  new RecordingError(
    file,
    `${where}: more than ${MAX_EXCHANGES.toLocaleString('en-US')} exchanges, the most a recording may hold (split it into several recordings)`,
  );

/** What scanning a recording found besides its exchanges. */
export interface RecordingScan {
  header: RecordingHeader;
  /** False when the last line was torn (a recorder killed mid-write): that exchange was skipped. */
  terminated: boolean;
  /** How many exchanges it holds (at most MAX_EXCHANGES). */
  count: number;
}

const asRecordingError = (err: unknown, file: string): unknown =>
  err instanceof FileAccessError ? new RecordingError(file, err.message.slice(file.length + 2)) : err;

/**
 * Reads a recording exchange by exchange, checking each: JSON lines (version 2) one line at a time,
 * so memory follows the longest line, not the file; a version 1 document whole. Every reader of
 * recordings comes here: a file of more than MAX_EXCHANGES exchanges is refused at the one past it.
 */
export async function scanRecording(file: string, onExchange: (e: StoredExchange) => void): Promise<RecordingScan> {
  const absolute = resolve(file);
  let header: RecordingHeader | undefined;
  let isDocument = false;
  let terminated = true;
  let count = 0;
  try {
    ({ terminated } = await forEachLine(absolute, (line, n, whole) => {
      if (n === 1) {
        let first: unknown;
        try {
          first = JSON.parse(line);
        } catch {
          first = undefined;
        }
        // Version 1: one document (pretty-printed, or all on one line).
        isDocument =
          first === undefined || (first as { version?: unknown } | null)?.version === RECORDING_VERSION_DOCUMENT;
        if (isDocument) return false;
        header = checkHeader(first, absolute);
        return;
      }
      // A recorder killed mid-write leaves a torn last line without its newline: that exchange is lost, the rest stands.
      if (!whole || line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        // Never the parser's message: it quotes the line.
        throw new RecordingError(absolute, `line ${n}: not valid JSON`);
      }
      if (++count > MAX_EXCHANGES) throw tooMany(absolute, `line ${n}`);
      onExchange(checkExchange(value, absolute, '', `line ${n}: `));
    }));
    if (!header) {
      const doc = parseDocument((await readContainedFile(absolute)).toString('utf8'), absolute);
      for (const e of doc.exchanges) onExchange(e);
      const { exchanges: _all, ...documentHeader } = doc;
      return { header: documentHeader, terminated: true, count: doc.exchanges.length };
    }
  } catch (err) {
    throw asRecordingError(err, absolute);
  }
  return { header, terminated: isDocument || terminated, count };
}

/** Reads a recording's header and stored exchanges (sidecars not read), refusing a file over the size cap. */
export async function readRecordingDocument(file: string): Promise<RecordingDocument> {
  const exchanges: StoredExchange[] = [];
  const { header } = await scanRecording(file, (e) => exchanges.push(e));
  return { ...header, exchanges };
}

export interface ReadRecordingOptions {
  /**
   * Leave sidecar bodies on disk (each checked, then streamed when served) instead of reading them
   * in: what replay does, so its memory follows the recording's lines, not its bodies.
   */
  lazyBodies?: boolean;
}

/** A body part of an exchange being read: inline bytes now, a sidecar resolved once the scan is done. */
interface PendingBody {
  part: { body: Buffer; bodyFile?: BodyFile };
  stored: StoredBody;
  what: string;
}

/**
 * Reads a recording file; bodies come back as bytes (Buffers, never strings), or with `lazyBodies`
 * as sidecar files left on disk. Each line is parsed and turned into its exchange before the next is
 * read, so a recording takes about the memory of its bodies, not many copies of its text.
 */
export async function readRecording(file: string, options: ReadRecordingOptions = {}): Promise<Recording> {
  const absolute = resolve(file);
  const exchanges: Exchange[] = [];
  const pending: PendingBody[] = [];
  const { header } = await scanRecording(absolute, (e) => {
    // Built field by field (no rest or spread): this runs once per exchange, up to MAX_EXCHANGES times.
    const { request: sent, response: answer } = e;
    const exchange: Exchange = {
      id: e.id,
      ...(e.user !== undefined && { user: e.user }),
      ...(e.session !== undefined && { session: e.session }),
      request: {
        method: sent.method,
        path: sent.path,
        query: sent.query ?? [],
        headers: sent.headers ?? {},
        body: EMPTY_BODY,
      },
      response: { status: answer.status, headers: answer.headers ?? {}, body: EMPTY_BODY },
    };
    if (sent.partialBody !== undefined) exchange.request.partialBody = sent.partialBody;
    const requestBytes = inlineBytes(sent.body);
    if (requestBytes) exchange.request.body = requestBytes;
    else pending.push({ part: exchange.request, stored: sent.body!, what: `exchange ${e.id} request` });
    const responseBytes = inlineBytes(answer.body);
    if (responseBytes) exchange.response.body = responseBytes;
    else pending.push({ part: exchange.response, stored: answer.body!, what: `exchange ${e.id} response` });
    exchanges.push(exchange);
  });
  const sidecars = new SidecarReader(absolute);
  if (!options.lazyBodies) {
    // Inline bodies count towards the cap on what is held, as sidecars read in do.
    for (const e of exchanges) {
      sidecars.count(e.request.body);
      sidecars.count(e.response.body);
    }
  }
  for (const { part, stored, what } of pending) {
    if (!options.lazyBodies) {
      part.body = await sidecars.load(stored, what);
      continue;
    }
    const located = await sidecars.locate(stored, what);
    if (Buffer.isBuffer(located)) part.body = located;
    else part.bodyFile = located;
  }
  return {
    file: absolute,
    redacted: header.redacted,
    ...(header.created !== undefined && { created: header.created }),
    exchanges,
  };
}
