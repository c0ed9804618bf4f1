import type { FileHandle } from 'node:fs/promises';
import { NodeIntake } from './node-intake.js';

/** Bytes read at a time (one buffer, reused; it grows only for a line longer than this). */
const READ_BYTES = 1024 * 1024;
/**
 * Text decoded at a time, ending at a line end: small enough to stay in the young generation
 * (a larger string is allocated among the old objects and waits for a full collection).
 */
const PIECE_BYTES = 64 * 1024;
/** The document around the nodes (users, queues) is small; past this it is read whole instead. */
const MAX_REST_CHARS = 64 * 1024 * 1024;

/** The line that opens the nodes in the form writeSnapshot writes, and what stands in for them. */
const NODES_OPEN = '  "nodes": {';
const NODES_PLACEHOLDER = '  "nodes": 0';

export interface LinesRead {
  /** The document without its nodes ("nodes" is 0 there). */
  rest: Record<string, unknown>;
  nodes: NodeIntake;
  bytes: number;
}

/**
 * Reads a snapshot in the form writeSnapshot writes, one node per line (`    "<id>": {...},`):
 * each node line is parsed on its own into the intake, so neither the text of the whole file nor an
 * object with a key per node is ever made. The lines around the nodes are parsed as one small
 * document with the nodes left out. Undefined when the file is not in that form (reformatted, on one
 * line, keys reordered, a line that does not parse): the caller then parses it whole, which gives
 * the same state for a valid file and the usual error for a broken one. CRLF line ends are read as LF.
 */
export async function readSnapshotLines(
  fh: FileHandle,
  onRead?: (done: number, total: number) => void,
): Promise<LinesRead | undefined> {
  const reader = new LineForm();
  // A file that grows meanwhile is read to its end: the total never falls below what was read.
  const size = onRead ? (await fh.stat()).size : 0;
  let buf = Buffer.allocUnsafe(READ_BYTES);
  let filled = 0;
  let bytes = 0;
  for (;;) {
    if (filled === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const { bytesRead } = await fh.read(buf, filled, buf.length - filled, null);
    if (bytes === 0 && bytesRead > 0 && !opensLikeLineForm(buf.subarray(0, bytesRead))) return undefined;
    bytes += bytesRead;
    filled += bytesRead;
    if (bytesRead === 0) {
      // The last line may have no line end.
      if (filled > 0 && !reader.text(buf.toString('utf8', 0, filled) + '\n')) return undefined;
      const read = reader.end(bytes);
      if (read) onRead?.(bytes, bytes);
      return read;
    }
    if (bytes < size) onRead?.(bytes, size);
    let start = 0;
    while (start < filled) {
      let end = buf.lastIndexOf(0x0a, Math.min(filled, start + PIECE_BYTES) - 1);
      if (end < start) end = buf.indexOf(0x0a, start + PIECE_BYTES);
      if (end < 0 || end >= filled) break;
      if (!reader.text(buf.toString('utf8', start, end + 1))) return undefined;
      start = end + 1;
    }
    buf.copy(buf, 0, start, filled);
    filled -= start;
  }
}

/** The writer's first line is `{` alone: a file on one line (or reformatted) is told at its first bytes. */
function opensLikeLineForm(head: Buffer): boolean {
  return head[0] === 0x7b && (head[1] === 0x0a || (head[1] === 0x0d && head[2] === 0x0a));
}

/** The line-form parser's state, fed whole lines. */
class LineForm {
  readonly nodes = new NodeIntake();
  #phase: 'head' | 'nodes' | 'tail' = 'head';
  readonly #rest: string[] = [];
  #restChars = 0;
  /** The last node line ended with a comma: another node line must follow. */
  #comma = false;
  #anyNode = false;

  /** Takes text made of whole lines (it ends with a line end); false when it is not the line form. */
  text(text: string): boolean {
    for (let at = 0; at < text.length; ) {
      const nl = text.indexOf('\n', at);
      const end = nl > at && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
      if (!this.#line(text, at, end)) return false;
      at = nl + 1;
    }
    return true;
  }

  end(bytes: number): LinesRead | undefined {
    if (this.#phase !== 'tail') return undefined;
    let rest: unknown;
    try {
      rest = JSON.parse(this.#rest.join(''));
    } catch {
      return undefined;
    }
    // A later "nodes" key would replace ours in a whole parse: then this is not the line form.
    if (typeof rest !== 'object' || rest === null || (rest as Record<string, unknown>)['nodes'] !== 0) return undefined;
    return { rest: rest as Record<string, unknown>, nodes: this.nodes, bytes };
  }

  #line(text: string, at: number, end: number): boolean {
    if (this.#phase === 'nodes') return this.#nodeLine(text, at, end);
    if (this.#phase === 'head' && end - at === NODES_OPEN.length && text.startsWith(NODES_OPEN, at)) {
      this.#phase = 'nodes';
      return true;
    }
    return this.#keep(text.slice(at, end));
  }

  #keep(line: string): boolean {
    this.#restChars += line.length + 1;
    if (this.#restChars > MAX_REST_CHARS) return false;
    this.#rest.push(line, '\n');
    return true;
  }

  /** `    "<id>": {...}` with a comma unless it is the last, blank lines, or the `  }` that closes the nodes. */
  #nodeLine(text: string, at: number, end: number): boolean {
    if (!text.startsWith('    "', at)) {
      const line = text.slice(at, end);
      if (/^[ \t\r]*$/.test(line)) return true;
      if (line !== '  }' && line !== '  },') return false;
      if (this.#comma) return false;
      this.#phase = 'tail';
      return this.#keep(line === '  }' ? NODES_PLACEHOLDER : `${NODES_PLACEHOLDER},`);
    }
    if (this.#anyNode && !this.#comma) return false;
    // The key: up to the first quote no backslash escapes.
    let i = at + 5;
    let escaped = false;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i++;
      } else if (c < 0x20) {
        return false;
      }
    }
    const from = i + 3;
    this.#comma = text.charCodeAt(end - 1) === 0x2c;
    const stop = this.#comma ? end - 1 : end;
    if (
      from >= stop ||
      text.charCodeAt(i + 1) !== 0x3a ||
      text.charCodeAt(i + 2) !== 0x20 ||
      text.charCodeAt(from) !== 0x7b ||
      text.charCodeAt(stop - 1) !== 0x7d
    ) {
      return false;
    }
    let key: unknown;
    let value: unknown;
    try {
      key = escaped ? JSON.parse(text.slice(at + 4, i + 1)) : text.slice(at + 5, i);
      value = JSON.parse(text.slice(from, stop));
    } catch {
      return false;
    }
    this.nodes.add(key as string, value);
    this.#anyNode = true;
    return true;
  }
}
