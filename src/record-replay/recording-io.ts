import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { SidecarTarget } from './body-capture.js';
import {
  BASE_URL_TOKEN,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type Exchange,
  type Recording,
  type RecordingDocument,
  type StoredBody,
  type StoredExchange,
} from './format.js';
import { redactedNames } from './redaction.js';

/** The sidecar folder of a recording: recordings/session.json -> recordings/session.bodies/. */
export function sidecarDirName(file: string): string {
  return `${basename(file, extname(file))}.bodies`;
}

/**
 * Appends exchanges to a recording file. After each one the whole document is written to a
 * temporary file and renamed over the old one, so the file is always complete, valid JSON and a
 * killed recorder loses at most the exchange in flight.
 */
export class RecordingWriter {
  readonly file: string;
  readonly #doc: RecordingDocument;
  #nextId: number;
  #writing: Promise<void> = Promise.resolve();

  private constructor(file: string, doc: RecordingDocument) {
    this.file = file;
    this.#doc = doc;
    this.#nextId = doc.exchanges.reduce((max, e) => Math.max(max, e.id), 0) + 1;
  }

  /** A new recording (or, with `append`, one that keeps the exchanges already in the file). */
  static async open(file: string, redacted: string[], append = false): Promise<RecordingWriter> {
    const absolute = resolve(file);
    mkdirSync(dirname(absolute), { recursive: true });
    const doc: RecordingDocument =
      append && existsSync(absolute)
        ? parseDocument(await readFile(absolute, 'utf8'), absolute)
        : { format: RECORDING_FORMAT, version: RECORDING_VERSION, baseUrl: BASE_URL_TOKEN, redacted, exchanges: [] };
    // A new recording replaces the old one, sidecars included.
    if (!append) await rm(join(dirname(absolute), sidecarDirName(absolute)), { recursive: true, force: true });
    doc.redacted = [...new Set([...doc.redacted, ...redacted])];
    const writer = new RecordingWriter(absolute, doc);
    await writer.#save();
    return writer;
  }

  /** Reserves an exchange id (ids follow the order requests arrived; the file keeps completion order). */
  reserveId(): number {
    return this.#nextId++;
  }

  sidecar(id: number, side: 'request' | 'response'): SidecarTarget {
    const relative = `${sidecarDirName(this.file)}/${id}-${side}.bin`;
    return { relative, absolute: join(dirname(this.file), relative) };
  }

  /** Adds one completed exchange and writes the file; resolves once it is on disk. */
  add(exchange: StoredExchange): Promise<void> {
    this.#doc.exchanges.push(exchange);
    return this.#save();
  }

  /** Resolves once every write so far is on disk. */
  flush(): Promise<void> {
    return this.#writing;
  }

  #save(): Promise<void> {
    const text = `${JSON.stringify(this.#doc, null, 2)}\n`;
    const temp = `${this.file}.tmp`;
    this.#writing = this.#writing.then(async () => {
      await writeFile(temp, text);
      await rename(temp, this.file);
    });
    return this.#writing;
  }
}

function parseDocument(text: string, file: string): RecordingDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const d = doc as Partial<RecordingDocument>;
  if (d.format !== RECORDING_FORMAT) throw new Error(`${file}: not a csp-mock recording (format is not "${RECORDING_FORMAT}")`);
  if (d.version !== RECORDING_VERSION) throw new Error(`${file}: recording version ${String(d.version)} is not supported (this build reads ${RECORDING_VERSION})`);
  if (!Array.isArray(d.exchanges)) throw new Error(`${file}: "exchanges" must be an array`);
  // The built-in names are always redacted, whatever the file lists (a hand-made file may list none).
  return { ...d, redacted: redactedNames(Array.isArray(d.redacted) ? d.redacted : []) } as RecordingDocument;
}

/** Reads a recording file and its sidecars; bodies come back as bytes. */
export async function readRecording(file: string): Promise<Recording> {
  const absolute = resolve(file);
  const doc = parseDocument(await readFile(absolute, 'utf8'), absolute);
  const exchanges: Exchange[] = [];
  for (const e of doc.exchanges) exchanges.push(await loadExchange(e, dirname(absolute)));
  return { file: absolute, redacted: doc.redacted, exchanges };
}

async function loadExchange(e: StoredExchange, baseDir: string): Promise<Exchange> {
  if (!e.request || !e.response || typeof e.request.method !== 'string' || typeof e.response.status !== 'number') {
    throw new Error(`exchange ${String(e.id)}: needs request.method and response.status`);
  }
  return {
    id: e.id,
    ...(e.user !== undefined && { user: e.user }),
    ...(e.session !== undefined && { session: e.session }),
    request: { ...e.request, query: e.request.query ?? [], headers: e.request.headers ?? {}, body: await loadBody(e.request.body, baseDir) },
    response: { ...e.response, headers: e.response.headers ?? {}, body: await loadBody(e.response.body, baseDir) },
  };
}

export async function loadBody(body: StoredBody | undefined, baseDir: string): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  if ('text' in body) return Buffer.from(body.text, 'utf8');
  if ('base64' in body) return Buffer.from(body.base64, 'base64');
  const bytes = await readFile(join(baseDir, body.file));
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== body.sha256) throw new Error(`sidecar ${body.file}: content does not match its sha256`);
  return bytes;
}

