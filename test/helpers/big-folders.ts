import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { XMLValidator } from 'fast-xml-parser';
import type { ScenarioDefinition } from '../../src/index.js';
import { BASIC_DEMO } from './cli.js';

/** Names no markup or URL may take as its own: each must come back exactly as stored. */
export const HOSTILE_NAMES = [
  '<img src=x onerror="alert(1)">.txt',
  '<script>alert(1)<∕script>.txt',
  'a & b "quoted" \'single\'.txt',
  ']]> -- <!-- end.txt',
  '%2e%2e%2fescape #hash ?query.txt',
  'ünïcödé 😀 文件.txt',
];

export const memberName = (i: number): string => `f${String(i).padStart(6, '0')}.txt`;

/**
 * A scenario with /big, holding `files` empty files (and `folders` folders), and /hostile holding
 * HOSTILE_NAMES; seeded in one go through the seed layer, not by requests.
 */
export function bigFolderScenario(files: number, folders = 0): ScenarioDefinition {
  return {
    name: 'big-folder',
    seed: {
      tree: [
        {
          container: 'big',
          children: [
            ...Array.from({ length: folders }, (_, i) => ({ container: `d${String(i).padStart(4, '0')}` })),
            ...Array.from({ length: files }, (_, i) => ({ file: memberName(i) })),
          ],
        },
        { container: 'hostile', children: HOSTILE_NAMES.map((file) => ({ file, text: 'x' })) },
      ],
    },
  };
}

/** An answer as it arrived: every chunk, whether it ended cleanly, and how. */
export interface ArrivedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  chunks: number;
  text: string;
  /** True when the whole answer arrived (for a chunked one, its last chunk). */
  complete: boolean;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called once the first chunk of the body has arrived (the rest is read after it settles). */
  onFirstChunk?: () => Promise<void>;
}

/** Sends one request on a fresh connection and reads the answer chunk by chunk, also a cut one. */
export function readArriving(url: string, options: RawRequest = {}): Promise<ArrivedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: { Authorization: BASIC_DEMO, 'X-Client-Specification': '2', ...options.headers },
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = [];
        let waiting: Promise<void> | undefined;
        const done = (): void =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            chunks: parts.length,
            text: Buffer.concat(parts).toString('utf8'),
            complete: res.complete,
          });
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          if (parts.length === 1 && options.onFirstChunk) {
            res.pause();
            waiting = options.onFirstChunk().then(() => void res.resume(), reject);
          }
        });
        res.on('end', () => void (waiting ?? Promise.resolve()).then(done));
        // A cut answer: 'aborted' on the response, then 'close' without 'end'.
        res.on('close', () => {
          if (!res.complete) void (waiting ?? Promise.resolve()).then(done);
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** True when `text` is one well-formed XML document (fast-xml-parser's validator, no tree built). */
export function wellFormed(text: string): boolean {
  return XMLValidator.validate(text) === true;
}
