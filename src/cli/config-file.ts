import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { jsonErrorMessage } from '../scenarios/json-error.js';

export const CONFIG_FILE = 'csp-mock.config.json';

/** Options whose values are paths: relative ones in a config file resolve against the file's folder. */
const PATH_KEYS = ['data', 'out', 'recording', 'admin-token-file', 'adminTokenFile'];

/**
 * The optional config file (--config FILE, else ./csp-mock.config.json when present): a JSON object of
 * option names (as on the command line, e.g. "port", "public-url" or "publicUrl") to values.
 */
export function loadConfigFile(argv: string[], cwd = process.cwd()): Record<string, unknown> {
  const flagAt = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  const given =
    flagAt < 0 ? undefined : argv[flagAt]!.includes('=') ? argv[flagAt]!.slice('--config='.length) : argv[flagAt + 1];
  const file = resolve(cwd, given ?? CONFIG_FILE);
  if (given === undefined && !existsSync(file)) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
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
  for (const key of PATH_KEYS) {
    const value = config[key];
    if (typeof value === 'string') config[key] = resolve(dirname(file), value);
  }
  const scenario = config['scenario'];
  if (typeof scenario === 'string' && /[\\/]|\.json$/.test(scenario))
    config['scenario'] = resolve(dirname(file), scenario);
  return config;
}

interface ParserOptions {
  key: Record<string, boolean>;
  number: string[];
  boolean: string[];
  array: string[];
}

let loadedConfig: Record<string, unknown> = {};

/** Remembers the config file's options for the commands' builders (main reads the file once). */
export function useConfig(config: Record<string, unknown>): void {
  loadedConfig = config;
}

const camel = (key: string): string => key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const envName = (key: string): string => `CSP_MOCK_${key.replace(/-/g, '_').toUpperCase()}`;

function fromEnv(raw: string, key: string, opts: ParserOptions): unknown {
  if (opts.number.includes(key)) return Number(raw);
  if (opts.boolean.includes(key)) return /^(1|true|yes|on)$/i.test(raw.trim());
  if (opts.array.includes(key))
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

/**
 * Fills the options a command defines from CSP_MOCK_<OPTION> and then the config file, as defaults,
 * so a flag still wins: flag > environment > file > built-in default. Only the command's own options
 * are read, so one environment or file can serve every command.
 */
export function withEnvAndConfig<Y>(y: Y): Y {
  const opts = (y as unknown as { getOptions(): ParserOptions }).getOptions();
  const target = y as unknown as { default(key: string, value: unknown): unknown };
  for (const key of Object.keys(opts.key)) {
    if (key === 'help' || key === 'version' || key === 'config' || key !== key.toLowerCase()) continue;
    const env = process.env[envName(key)];
    if (env !== undefined && env !== '') {
      const value = fromEnv(env, key, opts);
      if (typeof value === 'number' && Number.isNaN(value))
        throw new Error(`${envName(key)} must be a number, got "${env}"`);
      target.default(key, value);
      continue;
    }
    const value = loadedConfig[key] ?? loadedConfig[camel(key)];
    if (value !== undefined) target.default(key, value);
  }
  return y;
}

/** A command builder whose options also come from the environment and the config file. */
export function configured<A, B>(builder: (y: A) => B): (y: A) => B {
  return (y) => withEnvAndConfig(builder(y));
}
