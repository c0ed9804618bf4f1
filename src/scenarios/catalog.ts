import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closestName } from './closest-name.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioListing } from '../http/wire-types.js';

export type { ScenarioListing };

/** The built-in scenarios ship in the package's scenarios/ folder (two levels above src/ or dist/). */
export const BUILTIN_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
export const SCHEMA_FILE = join(BUILTIN_DIR, 'scenario.schema.json');

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A name as a message shows it: quoted, escaped, cut (a 100 KB name is not echoed back). */
const quoted = (spec: string): string => JSON.stringify(spec.length > 80 ? `${spec.slice(0, 80)}…` : spec);

/** A name unless it looks like a path (a slash, or a .json ending). */
export function isScenarioPath(spec: string): boolean {
  return /[\\/]/.test(spec) || spec.endsWith('.json');
}

/** Folders searched for a scenario name, first hit wins: the referring file's folder, ./scenarios, built-ins. */
function searchDirs(cwd: string, nearDir?: string): string[] {
  const dirs = [nearDir, join(cwd, 'scenarios'), BUILTIN_DIR].filter((d): d is string => d !== undefined);
  return [...new Set(dirs.map((d) => resolve(d)))];
}

/** The file a --scenario value (or an extends value) names; `nearDir` is the referring file's folder. */
export async function locateScenario(
  spec: string,
  cwd: string,
  nearDir?: string,
  referrer = 'scenario',
): Promise<string> {
  if (isScenarioPath(spec)) return resolve(nearDir ?? cwd, spec);
  if (!NAME.test(spec))
    throw new ScenarioError(referrer, undefined, `${quoted(spec)} is neither a scenario name nor a path`);
  for (const dir of searchDirs(cwd, nearDir)) {
    const file = join(dir, `${spec}.json`);
    // Synchronous, like module resolution: one stat each, no thread-pool round trip, no error made for a miss
    // (every tenant looks for ./scenarios/default.json first).
    if (existsSync(file)) return file;
  }
  // A file's "name" field also finds it (a scenario named "flaky" in scenarios/my-flaky.json).
  const listed = listScenarios(cwd);
  const byField = listed.find((s) => s.declaredName === spec);
  if (byField) return byField.file;
  const known = listed.map((s) => s.name);
  const near = closestName(spec, [...known, ...listed.flatMap((s) => (s.declaredName ? [s.declaredName] : []))]);
  throw new ScenarioError(
    referrer,
    undefined,
    `no scenario named ${quoted(spec)}${near ? `; did you mean "${near}"?` : ''} (known: ${known.join(', ')})`,
  );
}

/** Built-in and local (./scenarios) scenarios with their descriptions; a local one shadows a built-in. */
export function listScenarios(cwd: string): ScenarioListing[] {
  const found = new Map<string, ScenarioListing>();
  for (const dir of [BUILTIN_DIR, join(cwd, 'scenarios')].map((d) => resolve(d))) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== basename(SCHEMA_FILE));
    } catch {
      continue;
    }
    for (const fileName of names.sort()) {
      const file = join(dir, fileName);
      const name = fileName.slice(0, -'.json'.length);
      const { description, declaredName } = describeFile(file);
      const listing: ScenarioListing = { name, description, file, builtIn: dirname(file) === resolve(BUILTIN_DIR) };
      if (declaredName !== undefined && declaredName !== name) listing.declaredName = declaredName;
      found.set(name, listing);
    }
  }
  return [...found.values()];
}

function describeFile(file: string): { description: string; declaredName?: string } {
  try {
    // Listed over HTTP too: only regular files of scenario size are read, and an error never quotes them.
    const info = statSync(file);
    if (!info.isFile() || info.size > 16 * 1024 * 1024)
      return { description: '(unreadable: not a regular file of scenario size)' };
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { description?: unknown; name?: unknown };
    const description = typeof parsed.description === 'string' ? parsed.description : '';
    return typeof parsed.name === 'string' ? { description, declaredName: parsed.name } : { description };
  } catch (err) {
    return {
      description:
        err instanceof SyntaxError
          ? '(unreadable: not valid JSON)'
          : `(unreadable: ${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
}
