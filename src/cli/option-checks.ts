import { closestName } from '../scenarios/closest-name.js';

/**
 * What yargs hands a `.check()` callback as its second argument: the options the command being run knows,
 * with their aliases and types.
 */
export interface KnownOptions {
  key?: Record<string, boolean>;
  alias?: Record<string, string[]>;
  number?: string[];
  boolean?: string[];
}

/** A value of the wrong kind: the message names the source and is the whole story (no usage hint). */
export class OptionValueError extends Error {}

const envName = (key: string): string => `CSP_MOCK_${key.replace(/-/g, '_').toUpperCase()}`;
const camel = (key: string): string => key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The option names typed on the command line (before a "--"): "--name", "--name=value", "--no-name", "-x". */
function typedOptions(args: readonly string[]): string[] {
  const names: string[] = [];
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('--')) names.push(arg.slice(2).split('=')[0]!);
    else if (/^-[A-Za-z]/.test(arg)) names.push(.../^-([A-Za-z]+)/.exec(arg)![1]!.split(''));
  }
  return names;
}

/**
 * A typed option the command does not know is refused with the nearest known one. Only the command line is
 * checked: CSP_MOCK_* variables and the config file may hold options of other commands (one environment
 * serves every command) and variables that are not options at all (CSP_MOCK_MAX_FILE_BYTES).
 */
function refuseUnknownOptions(args: readonly string[], options: KnownOptions): void {
  const known = new Set<string>();
  for (const key of Object.keys(options.key ?? {})) known.add(key).add(camel(key));
  for (const [key, aliases] of Object.entries(options.alias ?? {})) for (const a of [key, ...aliases]) known.add(a);
  for (const name of typedOptions(args)) {
    if (known.has(name) || (name.startsWith('no-') && known.has(name.slice(3)))) continue;
    const spelled = Object.keys(options.key ?? {}).filter((k) => k.length > 1 && k === k.toLowerCase());
    const near = closestName(name, spelled);
    const dashes = name.length === 1 ? '-' : '--';
    throw new Error(`unknown option ${dashes}${name}${near ? `; did you mean --${near}?` : ''}`);
  }
}

/** Where a value came from, for an error message: the flag, the variable or the config file. */
function sourceOf(key: string, args: readonly string[], aliases: string[]): string {
  const typed = typedOptions(args);
  if (typed.includes(key) || aliases.some((a) => typed.includes(a))) return `--${key}`;
  const env = process.env[envName(key)];
  if (env !== undefined) return `${envName(key)}`;
  return `"${key}" in the config file`;
}

/**
 * A number option that is not a number (yargs gives NaN: `--status abc`, `CSP_MOCK_PORT=eighty`), or a
 * boolean variable other than true/false (yargs reads anything else as false), is an error naming the source.
 */
function refuseBadValues(argv: Record<string, unknown>, args: readonly string[], options: KnownOptions): void {
  for (const key of options.number ?? []) {
    if (!key.includes('-') && key !== key.toLowerCase()) continue;
    const value = argv[key];
    if (typeof value !== 'number' || !Number.isNaN(value)) continue;
    const source = sourceOf(key, args, options.alias?.[key] ?? []);
    const raw = source.startsWith('CSP_MOCK_') ? process.env[source] : undefined;
    throw new OptionValueError(`${source} must be a number${raw !== undefined ? `, got "${raw}"` : ''}`);
  }
  for (const key of options.boolean ?? []) {
    const raw = process.env[envName(key)];
    if (raw === undefined || /^(true|false)$/.test(raw)) continue;
    if (sourceOf(key, args, options.alias?.[key] ?? []) !== envName(key)) continue;
    throw new OptionValueError(`${envName(key)} must be true or false, got "${raw}"`);
  }
}

/** The checks yargs runs for every command, after parsing and before the handler. */
export function optionChecks(args: readonly string[]) {
  return (argv: Record<string, unknown>, options: unknown): true => {
    const known = (options ?? {}) as KnownOptions;
    refuseUnknownOptions(args, known);
    refuseBadValues(argv, args, known);
    return true;
  };
}

/**
 * An array option from a CSP_MOCK_* variable is a comma-separated list (`CSP_MOCK_USER=ann:pw,bob:pw2`);
 * yargs reads the variable as one value. A yargs middleware, run before validation.
 */
export function splitEnvironmentLists(argv: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(argv)) {
    if (!Array.isArray(value) || value.length !== 1 || key.length < 2) continue;
    const raw = process.env[envName(key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))];
    if (raw !== undefined && raw === value[0] && raw.includes(',')) {
      argv[key] = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }
  }
}

/**
 * yargs' refusal of a value outside an option's choices ("Invalid values:\n  Argument: fail-on, Given: "warnin",
 * Choices: "warning", ...") as one line with the nearest choice: `--fail-on "warnin" is not one of warning,
 * error, none; did you mean "warning"?`. A positional (`change renmae`) is named without dashes. Other
 * messages are returned as they are.
 */
export function choiceRefusal(message: string, args: readonly string[]): string {
  const match = /^Invalid values:\s+Argument: ([^,]+), Given: (.*?), Choices: (.*)$/s.exec(message.trim());
  if (!match) return message;
  const [, name, givenText, choicesText] = match;
  const choices = [...choicesText!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
  const given = /^"(.*)"$/s.exec(givenText!)?.[1] ?? givenText!;
  const near = closestName(given, choices);
  const what = typedOptions(args).includes(name!) ? `--${name}` : name!;
  return `${what} "${given}" is not one of ${choices.join(', ')}${near ? `; did you mean "${near}"?` : ''}`;
}
