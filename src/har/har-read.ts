import { FileAccessError, readContainedFile } from '../files/contained-file.js';
import { TOKEN } from '../recording/recording-read.js';
import type { Har, HarEntry } from './har-types.js';

/** A file that is not a HAR csp-mock can read, naming the file and the problem (never its contents). */
export class HarError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'HarError';
  }
}

/** HAR versions whose entries have the shape read here (1.1 and 1.2 differ only in optional fields). */
const READABLE_VERSIONS = ['1.1', '1.2'];

/** A header value Node would refuse to send: control characters other than tab. */
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNameValues = (v: unknown): boolean =>
  v === undefined ||
  (Array.isArray(v) && v.every((x) => isObject(x) && typeof x['name'] === 'string' && typeof x['value'] === 'string'));

function checkEntry(value: unknown, file: string, index: number): HarEntry {
  const problem = (what: string): never => {
    throw new HarError(file, `log.entries[${index}]: ${what}`);
  };
  if (!isObject(value)) return problem('an entry must be an object');
  const { request, response } = value;
  if (!isObject(request) || typeof request['method'] !== 'string' || typeof request['url'] !== 'string')
    problem('needs request.method and request.url');
  if (!isObject(response) || typeof response['status'] !== 'number') problem('needs a numeric response.status');
  const req = request as Record<string, unknown>;
  const res = response as Record<string, unknown>;
  if (!TOKEN.test(req['method'] as string)) problem('request.method must be an HTTP method (a token)');
  if (!isNameValues(req['headers']) || !isNameValues(res['headers']))
    problem('headers must be a list of {name, value} strings');
  for (const side of ['request', 'response'] as const) {
    const headers = ((side === 'request' ? req : res)['headers'] ?? []) as Array<{ name: string; value: string }>;
    headers.forEach((h, i) => {
      // HTTP/2 pseudo-headers (":path") are dropped on import.
      if (!h.name.startsWith(':') && !TOKEN.test(h.name))
        problem(`${side}.headers[${i}]: the name is not an HTTP token`);
      if (BAD_VALUE.test(h.value)) problem(`${side}.headers[${i}]: the value holds a control character`);
    });
  }
  const content = res['content'];
  if (
    content !== undefined &&
    !(isObject(content) && (content['text'] === undefined || typeof content['text'] === 'string'))
  )
    problem('response.content.text must be a string');
  const postData = req['postData'];
  if (
    postData !== undefined &&
    !(isObject(postData) && (postData['text'] === undefined || typeof postData['text'] === 'string'))
  )
    problem('request.postData.text must be a string');
  return value as unknown as HarEntry;
}

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
  const entries = log['entries'].map((e, i) => checkEntry(e, file, i));
  return { log: { ...(log as unknown as Har['log']), entries } };
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
