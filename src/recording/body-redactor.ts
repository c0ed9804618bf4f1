import { mediaTypeOf } from '../http/media-type.js';
import { REDACTED, redactBody, secretFieldValueAt } from '../http/redaction.js';

/**
 * Redacts a body on its way to the recording, a chunk at a time, in bounded memory: what `push` and `end`
 * return is final. The same result as redactBody on the whole body, so a replayed request with the real
 * secret still matches the body stored for it.
 */
export interface BodyRedactor {
  push(chunk: Buffer): Buffer;
  end(): Buffer;
  /** The body was too large to redact whole: nothing of it may be kept. */
  readonly omitted: boolean;
}

/** JSON and form bodies are redacted whole; past this many bytes one is not kept at all. */
export const MAX_REDACTED_BODY = 16 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/** The redactor for a body of this type, or undefined when its type holds no fields to redact. */
export function bodyRedactor(contentType: string | undefined, names: readonly string[]): BodyRedactor | undefined {
  const type = mediaTypeOf(contentType);
  if (type === 'multipart/form-data') return new MultipartFieldRedactor(names);
  if (type === 'application/json' || type.endsWith('+json') || type === 'application/x-www-form-urlencoded')
    return new WholeBodyRedactor(contentType, names);
  return undefined;
}

/** Holds the body (up to MAX_REDACTED_BODY) and redacts it at the end: a JSON value or form pair may span it all. */
class WholeBodyRedactor implements BodyRedactor {
  readonly #contentType: string | undefined;
  readonly #names: readonly string[];
  #chunks: Buffer[] = [];
  #bytes = 0;
  #omitted = false;

  constructor(contentType: string | undefined, names: readonly string[]) {
    this.#contentType = contentType;
    this.#names = names;
  }

  get omitted(): boolean {
    return this.#omitted;
  }

  push(chunk: Buffer): Buffer {
    if (this.#omitted) return EMPTY;
    this.#bytes += chunk.length;
    if (this.#bytes > MAX_REDACTED_BODY) {
      this.#omitted = true;
      this.#chunks = [];
    } else this.#chunks.push(chunk);
    return EMPTY;
  }

  end(): Buffer {
    if (this.#omitted) return EMPTY;
    const body = Buffer.concat(this.#chunks);
    this.#chunks = [];
    return redactBody(body, this.#contentType, this.#names, REDACTED);
  }
}

/** The longest part header block looked for: a field whose headers run longer is not recognised. */
const HEADER_WINDOW = 64 * 1024;
/** Where a multipart value ends (its boundary line), as redactMultipartText reads it. */
const VALUE_END = '\r\n--';

/**
 * multipart/form-data streamed: file parts pass, a text field named like a secret has its value replaced up
 * to the next boundary line. Holds at most a header window and a chunk.
 */
class MultipartFieldRedactor implements BodyRedactor {
  readonly #names: readonly string[];
  /** Text not yet given out (latin1: one character per byte, so binary parts pass unchanged). */
  #pending = '';
  /** Inside a secret value: dropped until its boundary line. */
  #skipping = false;
  readonly omitted = false;

  constructor(names: readonly string[]) {
    this.#names = names;
  }

  push(chunk: Buffer): Buffer {
    this.#pending += chunk.toString('latin1');
    return Buffer.from(this.#drain(false), 'latin1');
  }

  end(): Buffer {
    return Buffer.from(this.#drain(true), 'latin1');
  }

  #drain(final: boolean): string {
    const out: string[] = [];
    for (;;) {
      if (this.#skipping) {
        const end = this.#pending.indexOf(VALUE_END);
        if (end < 0) {
          // A boundary line may start in the last few characters: keep them.
          this.#pending = final ? '' : this.#pending.slice(-(VALUE_END.length - 1));
          return out.join('');
        }
        this.#pending = this.#pending.slice(end);
        this.#skipping = false;
      }
      const valueAt = secretFieldValueAt(this.#pending, this.#names);
      if (valueAt >= 0) {
        out.push(this.#pending.slice(0, valueAt), REDACTED);
        this.#pending = this.#pending.slice(valueAt);
        this.#skipping = true;
        continue;
      }
      // No secret field's headers are complete here: give out all but a window where some may be starting.
      const keep = final ? 0 : Math.min(this.#pending.length, HEADER_WINDOW);
      out.push(this.#pending.slice(0, this.#pending.length - keep));
      this.#pending = this.#pending.slice(this.#pending.length - keep);
      return out.join('');
    }
  }
}
