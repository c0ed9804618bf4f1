import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { jsonErrorMessage } from '../scenarios/json-error.js';
import { PATH_OPTIONS } from '../option-table.js';
import { OptionValueError } from './option-checks.js';

export const CONFIG_FILE = 'csp-mock.config.json';

/** Options whose values are paths, as flags and in camelCase: relative ones in a config file resolve against the file's folder. */
const PATH_KEYS = PATH_OPTIONS.flatMap((name) => [name, name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())]);

/**
 * yargs' `.config()` parser for csp-mock.config.json (or --config FILE): a JSON object of option names (as on
 * the command line, e.g. "port", "public-url" or "publicUrl") to values, with relative paths made relative
 * to the file. yargs itself gives a flag and CSP_MOCK_* precedence over the file. The default file may be
 * absent; a file that was named must be there.
 */
export function parseConfigFile(named: boolean): (file: string) => Record<string, unknown> {
  return (file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!named && code === 'ENOENT') return {};
      throw new Error(`cannot read config file ${file}: ${code ?? (err as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`config file ${file} is not valid JSON: ${jsonErrorMessage(text, err as Error)}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`config file ${file} must hold a JSON object of options`);
    const config = { ...(parsed as Record<string, unknown>) };
    for (const [key, value] of Object.entries(config)) checkConfigValue(file, key, value);
    for (const key of PATH_KEYS) {
      const value = config[key];
      if (typeof value === 'string') config[key] = resolve(dirname(file), value);
    }
    const scenario = config['scenario'];
    if (typeof scenario === 'string' && /[\\/]|\.json$/.test(scenario))
      config['scenario'] = resolve(dirname(file), scenario);
    return config;
  };
}

/** An option's name as on the command line or in camelCase ("public-url", "publicUrl"); "__proto__" is none. */
const OPTION_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

const isPlain = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Each field is what a command line can give: a string, a number, true or false, or a list of strings and
 * numbers (a repeated option). yargs would pass anything else on to the command unread, so it is refused here,
 * in one line naming the file and the field.
 */
function checkConfigValue(file: string, key: string, value: unknown): void {
  if (!OPTION_NAME.test(key)) throw new OptionValueError(`config file ${file}: "${key}" is not an option name`);
  if (isPlain(value)) return;
  if (
    Array.isArray(value) &&
    value.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
  )
    return;
  const got =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list holding other values'
        : typeof value === 'object'
          ? 'an object'
          : String(value);
  throw new OptionValueError(
    `config file ${file}: "${key}" must be a string, a number, true or false, or a list of strings, got ${got}`,
  );
}
