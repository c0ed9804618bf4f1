import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The published schemas (recordings/schemas/) are what the readers check, so the two cannot drift apart.
// ajv is loaded and each schema compiled on its first use: a mock that reads no file needs neither.
const load = createRequire(import.meta.url);
const SCHEMAS = new URL('../../recordings/schemas/', import.meta.url);
let ajv: AjvClass | undefined;
/** By schema file: compiled once, whichever reader asks first. */
const compiled = new Map<string, ValidateFunction>();

/** A name from the file as a message shows it: cut (a 9 MB header name is not echoed) and escaped (no terminal codes). */
const shortName = (name: string): string => {
  const cut = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return /^[\x21-\x7e]*$/.test(cut)
    ? cut
    : JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
};

/** How each kind of ajv error reads: the field it names below the error's place, and the problem. */
const READINGS: Record<string, (e: ErrorObject, takes: string | undefined) => [child: string, problem: string]> = {
  required: (e) => [String(e.params['missingProperty']), 'is required'],
  // A header name: the map's own description says what names it takes.
  propertyNames: (e, takes) => [String(e.params['propertyName']), `is not allowed: must be ${takes}`],
};
/** Any other error is about the field at its place, which takes what its schema's description says. */
const otherwise = (e: ErrorObject, takes: string | undefined): [string, string] => [
  '',
  takes ? `must be ${takes}` : (e.message ?? 'is invalid'),
];

/** "/request/query/0" under "exchanges[3]" -> "exchanges[3].request.query[0]" */
const fieldOf = (at: string, parts: string[]): string =>
  parts.map(shortName).reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), at);

/**
 * A check against one of the published schemas (`recording.schema.json`, `har-entry.schema.json`): the
 * first problem as "field: problem" under `at` (a field such as "log.entries"), or undefined when valid.
 */
export function schemaCheck(schemaFile: string): (value: unknown, at: string) => string | undefined {
  return (value, at) => {
    let validate = compiled.get(schemaFile);
    if (!validate) {
      ajv ??= new (load('ajv') as { Ajv: typeof AjvClass }).Ajv({ verbose: true, strict: false });
      validate = ajv.compile(JSON.parse(readFileSync(new URL(schemaFile, SCHEMAS), 'utf8')) as object);
      compiled.set(schemaFile, validate);
    }
    if (validate(value)) return undefined;
    // Without allErrors ajv stops at the first problem; a failed choice (anyOf) comes after its branches' errors.
    const error = validate.errors!.at(-1)!;
    const takes = (error.parentSchema as { description?: string } | undefined)?.description;
    const [child, problem] = (READINGS[error.keyword] ?? otherwise)(error, takes);
    const parts = error.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const field = fieldOf(at, child ? [...parts, child] : parts);
    return field ? `${field}: ${problem}` : problem;
  };
}
