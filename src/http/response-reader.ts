import { connectionError } from './in-process-socket.js';
import type { HeaderMap, PlainResponse } from './plain-exchange.js';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

type Body =
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; left: number; state: 'size' | 'data' | 'data-end' }
  | { kind: 'close' };

/**
 * Reads one HTTP/1.1 response from bytes as they arrive (1xx answers skipped; the body by length,
 * chunked or close). Each byte is looked at once or twice: only the head and a chunk-size line are
 * ever joined with what came before, so a body of any size in any number of writes reads in linear time.
 */
export class ResponseReader {
  readonly #method: string;
  /** Bytes not yet understood: part of a head, of a chunk-size line, or of a trailer section. */
  #pending: Buffer = Buffer.alloc(0);
  #status = 0;
  #headers: HeaderMap = {};
  #body: Body | undefined;
  readonly #parts: Buffer[] = [];
  readonly #onBody: ((chunk: Buffer) => void) | undefined;
  #done: PlainResponse | undefined;

  /** With `onBody`, body bytes go to it as they arrive (the answer's body is then empty), else they are kept. */
  constructor(method: string, onBody?: (chunk: Buffer) => void) {
    this.#method = method;
    this.#onBody = onBody;
  }

  /** The status and headers, once they have been read. */
  get head(): Omit<PlainResponse, 'body'> | undefined {
    return this.#body ? { status: this.#status, headers: this.#headers } : undefined;
  }

  /** Takes the next bytes; the response once it is complete, else undefined. Throws on a malformed response. */
  push(chunk: Buffer): PlainResponse | undefined {
    let rest: Buffer | undefined = chunk;
    while (rest && rest.length > 0 && !this.#done) rest = this.#body ? this.#readBody(rest) : this.#readHead(rest);
    return this.#done;
  }

  /** The connection closed: the response as it stands, if that is a whole one. */
  end(): PlainResponse {
    if (this.#done) return this.#done;
    // What a Node client says when the server closes early: before the answer, or during its body.
    if (!this.#body) throw connectionError('socket hang up');
    if (this.#body.kind !== 'close') throw connectionError('aborted');
    return this.#finish();
  }

  #readHead(chunk: Buffer): Buffer | undefined {
    const from = Math.max(0, this.#pending.length - 3);
    const joined = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const end = joined.indexOf(HEAD_END, from);
    if (end < 0) {
      this.#pending = joined;
      return undefined;
    }
    this.#pending = Buffer.alloc(0);
    const lines = joined.subarray(0, end).toString('latin1').split('\r\n');
    const rest = joined.subarray(end + 4);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) throw new Error(`in-process response has no status line: ${lines[0] ?? ''}`);
    if (status >= 100 && status < 200) return rest;
    const headers: HeaderMap = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const prev = headers[name];
      headers[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    this.#status = status;
    this.#headers = headers;
    const length = headers['content-length'];
    if (this.#method === 'HEAD' || status === 204 || status === 304) this.#body = { kind: 'length', left: 0 };
    else if (/chunked/i.test(String(headers['transfer-encoding'] ?? '')))
      this.#body = { kind: 'chunked', left: 0, state: 'size' };
    else if (length !== undefined) this.#body = { kind: 'length', left: Number(length) };
    else this.#body = { kind: 'close' };
    if (this.#body.kind === 'length' && this.#body.left === 0) this.#finish();
    return rest;
  }

  #readBody(chunk: Buffer): Buffer | undefined {
    const body = this.#body!;
    if (body.kind === 'close') {
      this.#take(chunk);
      return undefined;
    }
    if (body.kind === 'length') {
      const take = chunk.subarray(0, body.left);
      this.#take(take);
      body.left -= take.length;
      if (body.left === 0) this.#finish();
      return undefined;
    }
    if (body.state === 'data') {
      const take = chunk.subarray(0, body.left);
      this.#take(take);
      body.left -= take.length;
      if (body.left === 0) body.state = 'data-end';
      return chunk.subarray(take.length);
    }
    // A size line or the CRLF after a chunk's data: small, joined with what came before.
    const joined = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const eol = joined.indexOf(CRLF);
    if (eol < 0) {
      this.#pending = joined;
      return undefined;
    }
    this.#pending = Buffer.alloc(0);
    if (body.state === 'data-end') {
      if (eol !== 0) throw new Error('in-process response has a malformed chunk');
      body.state = 'size';
      return joined.subarray(2);
    }
    const size = Number.parseInt(joined.subarray(0, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('in-process response has a malformed chunk');
    // The last chunk: the answer is whole (trailers, if any, are not kept).
    if (size === 0) {
      this.#finish();
      return undefined;
    }
    body.left = size;
    body.state = 'data';
    return joined.subarray(eol + 2);
  }

  #take(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.#onBody) this.#onBody(chunk);
    else this.#parts.push(chunk);
  }

  #finish(): PlainResponse {
    this.#done = { status: this.#status, headers: this.#headers, body: Buffer.concat(this.#parts) };
    return this.#done;
  }
}
