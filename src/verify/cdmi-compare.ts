/**
 * CDMI answers (JSON) compared by structure: every field equal, except what a fresh emulator cannot
 * reproduce. Object and parent ids are its own, so only their presence is compared; an event time is
 * compared as a time; a content tag (cdmi_hash) only as present. A queue's values are JSON strings
 * holding events: each is read and compared the same way.
 */

const ANY_STRING = new Set(['objectID', 'parentID', 'cdmi_hash']);
const A_TIME = new Set(['cdmi_event_time']);

/** True for the CDMI media types (application/cdmi-queue, -container, -object, and CDMI 1.0.2's vnd.org.snia.cdmi.*). */
export function isCdmiJson(contentType: string | undefined): boolean {
  return /^\s*application\/(cdmi-|vnd\.org\.snia\.cdmi\.)/i.test(contentType ?? '');
}

/** The differences between a recorded and an actual CDMI body; undefined when either is not JSON. */
export function compareCdmiJson(expected: string, actual: string): string[] | undefined {
  const a = parse(expected);
  const b = parse(actual);
  if (a === undefined || b === undefined) return undefined;
  const out: string[] = [];
  walk('', a, b, out);
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value that is itself a JSON object in a string (a queue value). */
const embedded = (v: unknown): unknown => (typeof v === 'string' && v.startsWith('{') ? parse(v) : undefined);

function walk(path: string, a: unknown, b: unknown, out: string[]): void {
  const key = path.slice(path.lastIndexOf('/') + 1);
  if (ANY_STRING.has(key)) {
    if (typeof a !== typeof b) out.push(`body ${path}: expected a ${typeof a}, got ${JSON.stringify(b)}`);
    return;
  }
  if (A_TIME.has(key)) {
    if (Number.isNaN(Date.parse(String(b)))) out.push(`body ${path}: expected a time, got ${JSON.stringify(b)}`);
    return;
  }
  const ea = embedded(a);
  const eb = embedded(b);
  if (ea !== undefined && eb !== undefined) return walk(path, ea, eb, out);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`body ${path}: expected ${a.length} item(s), got ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) walk(`${path}/${i}`, a[i], b[i], out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b)) out.push(`body ${path}/${k}: missing`);
      else walk(`${path}/${k}`, a[k], b[k], out);
    }
    for (const k of Object.keys(b)) if (!(k in a)) out.push(`body ${path}/${k}: not expected`);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b))
    out.push(`body ${path || '/'}: expected ${JSON.stringify(a)}, got ${JSON.stringify(b)}`);
}
