import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SCHEMA_FILE } from './catalog.js';
import { ScenarioError } from './scenario-error.js';
import { sectionValue, type ScenarioSections } from './section.js';
import { fieldOfPlace, pointerOfPlace, walkSeed, type SeedPlace } from './seed-walk.js';
import type { DeviceChange, ScenarioDefinition, SeedNode, SeedTree } from './types.js';
import { BASE64, changesSection } from './change-check.js';
import { checkLatency, checkRule } from './rule-check.js';
import { DomainError } from '../domain/errors.js';
import { checkName } from '../domain/names.js';

// The published schema is the one the mock validates against, so the two cannot drift apart.
// Compiled (and ajv loaded) on the first scenario read, not at import: a built-in scenario never needs ajv.
const load = createRequire(import.meta.url);
interface Validators {
  scenario: ValidateFunction<ScenarioDefinition>;
  /** One seed node, its children unchecked: nested nodes are checked one by one, without recursion. */
  node: ValidateFunction;
}

/** The fields the loader reads itself, at the top and in `seed`; the schema's other fields are features' sections. */
export const CORE_FIELDS: Readonly<Record<'' | 'seed', readonly string[]>> = {
  '': '$schema name description extends latency recording seed faults'.split(' '),
  seed: ['users', 'tree', 'trees'],
};

interface PublishedSchema {
  properties: Record<string, unknown>;
  definitions: { seed: { properties: Record<string, unknown> }; node: { properties: { children: object } } };
}

/** By the sections' fields: a mock's features give the same sections every time. */
const validators = new Map<string, Validators>();
function compiled(sections: ScenarioSections): Validators {
  const key = sections.map((s) => s.field).join();
  let found = validators.get(key);
  if (!found) {
    const { Ajv } = load('ajv') as { Ajv: typeof AjvClass };
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as PublishedSchema;
    // A field no section given claims is not a known field: the loader knows only the features it is given.
    const keep = (holder: { properties: Record<string, unknown> }, at: '' | 'seed'): void => {
      const fields = new Set(CORE_FIELDS[at]);
      for (const { field } of sections)
        if (field.slice(0, Math.max(0, field.lastIndexOf('.'))) === at)
          fields.add(field.slice(at.length && at.length + 1));
      for (const name of Object.keys(holder.properties)) if (!fields.has(name)) delete holder.properties[name];
    };
    keep(schema, '');
    keep(schema.definitions.seed, 'seed');
    // ajv checks a recursive $ref by recursion, which a deep seed tree (an export of a deep state)
    // would take past the stack; nested nodes are checked by checkNestedNodes instead.
    schema.definitions.node.properties.children = { type: 'array' };
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    found = {
      scenario: ajv.compile<ScenarioDefinition>(schema),
      node: ajv.compile({ definitions: schema.definitions, $ref: '#/definitions/node' }),
    };
    validators.set(key, found);
  }
  return found;
}

/** Problems past this many are not listed (a huge tree of bad nodes must not make a huge answer). */
const MAX_LISTED_ERRORS = 100;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The seed's node lists with their field and pointer, as far as their shape allows. */
function seedLists(value: unknown): Array<{ nodes: unknown[]; field: string; pointer: string }> {
  const seed = isObject(value) && isObject(value['seed']) ? value['seed'] : undefined;
  if (!seed) return [];
  const lists: Array<{ nodes: unknown[]; field: string; pointer: string }> = [];
  if (Array.isArray(seed['tree'])) lists.push({ nodes: seed['tree'], field: 'seed.tree', pointer: '/seed/tree' });
  const trees = seed['trees'];
  if (isObject(trees)) {
    for (const user of Object.keys(trees)) {
      const nodes = trees[user];
      const escaped = user.replace(/~/g, '~0').replace(/\//g, '~1');
      if (Array.isArray(nodes)) lists.push({ nodes, field: `seed.trees.${user}`, pointer: `/seed/trees/${escaped}` });
    }
  }
  return lists;
}

const childrenOfRaw = (node: unknown): unknown[] | undefined =>
  isObject(node) && Array.isArray(node['children']) ? node['children'] : undefined;

/** The schema's errors for every seed node below the top level, each at its place. */
function checkNestedNodes(value: unknown, validateNode: ValidateFunction): ErrorObject[] {
  const errors: ErrorObject[] = [];
  for (const list of seedLists(value)) {
    walkSeed(list.nodes, list.field, childrenOfRaw, (node, place) => {
      if (!place.parent || errors.length >= MAX_LISTED_ERRORS || validateNode(node)) return;
      const at = pointerOfPlace(place, list.pointer);
      for (const e of validateNode.errors ?? []) errors.push({ ...e, instancePath: at + e.instancePath });
    });
  }
  return errors;
}

/** "/faults/0/respond" -> "faults[0].respond" */
function fieldOf(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '') || '(top level)';
}

function describe(error: ErrorObject): { field: string; problem: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperty':
    case 'additionalProperties':
      return {
        field: fieldOf(error.instancePath, String(params['additionalProperty'])),
        problem: 'is not a known field',
      };
    case 'required':
      return { field: fieldOf(error.instancePath, String(params['missingProperty'])), problem: 'is required' };
    case 'anyOf': {
      const hint = (error.parentSchema as { description?: string } | undefined)?.description;
      return {
        field: fieldOf(error.instancePath),
        problem: `has none of the allowed forms${hint ? ` (${hint})` : ''}`,
      };
    }
    case 'propertyNames':
      return {
        field: fieldOf(error.instancePath),
        problem: `has a name that is not allowed: "${String(params['propertyName'])}"`,
      };
    case 'pattern': {
      // A pattern says little to a person; the field's description says what it takes.
      const hint = (error.parentSchema as { description?: string } | undefined)?.description;
      return {
        field: fieldOf(error.instancePath),
        problem: hint ? `is not allowed: ${hint}` : (error.message ?? 'is invalid'),
      };
    }
    case 'enum':
      return {
        field: fieldOf(error.instancePath),
        problem: `must be one of ${JSON.stringify(params['allowedValues'])}`,
      };
    default:
      return { field: fieldOf(error.instancePath), problem: error.message ?? 'is invalid' };
  }
}

/**
 * Every problem once, most specific first: an anyOf (or a oneOf) is dropped when an error inside the
 * same field explains it better, and one field's repeats are merged.
 */
function problemsOf(errors: ErrorObject[]): Array<{ field: string; problem: string }> {
  const inside = (outer: string, e: ErrorObject): boolean => e.instancePath.startsWith(outer) && e.keyword !== 'anyOf';
  const deeper = (e: ErrorObject): boolean =>
    errors.some(
      (other) => other !== e && inside(e.instancePath, other) && other.instancePath.length > e.instancePath.length,
    );
  const anyOfAt = (path: string, described: boolean): boolean =>
    errors.some(
      (o) =>
        o.keyword === 'anyOf' &&
        o.instancePath === path &&
        (!described || (o.parentSchema as { description?: string } | undefined)?.description !== undefined),
    );
  const kept = errors.filter((e) => {
    // An error about a property name stands for the name's own pattern error.
    if ((e as { propertyName?: string }).propertyName !== undefined) return false;
    // A choice inside a choice at the same field: the outer one (reported after it) describes the field.
    if (e.keyword === 'anyOf')
      return (
        !deeper(e) &&
        !errors.slice(errors.indexOf(e) + 1).some((o) => o.keyword === 'anyOf' && o.instancePath === e.instancePath)
      );
    // A described choice of forms says it better than each form's own complaint.
    if (anyOfAt(e.instancePath, true) && !deeper(e)) return false;
    // One form was checked deeper: the other forms' complaints at this field are noise.
    return !(anyOfAt(e.instancePath, false) && deeper(e));
  });
  const seen = new Set<string>();
  const out: Array<{ field: string; problem: string }> = [];
  for (const e of kept) {
    const d = describe(e);
    const key = `${d.field}: ${d.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/** How a scenario is checked besides its shape: who sent it, and what its features add. */
export interface CheckContext {
  /** The sections of the mock's features (network shaping, generated accounts, ...), each checked by its own rules. */
  sections: ScenarioSections;
  /** A built-in file shipped with the package, which a test holds to the schema: the start of `serve` compiles none. */
  shapeChecked?: boolean;
  overHttp?: boolean;
}

/** Checks a parsed scenario against the schema, then the rules between fields; throws ScenarioError. */
export function checkScenario(value: unknown, source: string, context: CheckContext): ScenarioDefinition {
  if (!context.shapeChecked) {
    const { scenario, node } = compiled(context.sections);
    const errors = [...(scenario(value) ? [] : (scenario.errors ?? [])), ...checkNestedNodes(value, node)];
    if (errors.length > 0) {
      const problems = problemsOf(errors.slice(0, MAX_LISTED_ERRORS));
      if (problems.length === 1) throw new ScenarioError(source, problems[0]!.field, problems[0]!.problem);
      throw new ScenarioError(
        source,
        undefined,
        `${problems.length} problems:\n${problems.map((p) => `  ${p.field}: ${p.problem}`).join('\n')}`,
      );
    }
  }
  const definition = value as ScenarioDefinition;
  checkFields(definition, source);
  for (const section of context.sections) {
    const at = sectionValue(definition, section.field);
    if (at !== undefined) section.check?.(at, { source, scenario: definition, overHttp: context.overHttp ?? false });
  }
  return definition;
}

/** Second-device changes sent at run time (one or a list): a scenario's `changes` shape, without triggers. */
export function checkRunTimeChanges(value: unknown, source: string): DeviceChange[] {
  const changes = Array.isArray(value) ? (value as unknown[]) : [value];
  return checkScenario({ changes }, source, { sections: [changesSection('now')] }).changes!;
}

/** The rules between the core's fields, which the schema cannot say. */
function checkFields(value: ScenarioDefinition, source: string): void {
  value.faults?.forEach((rule, i) => checkRule(rule, `faults[${i}]`, source));
  if (value.latency) checkLatency(value.latency, 'latency', source);
  if (value.seed?.tree !== undefined) checkTree(value.seed.tree, 'seed.tree', source);
  for (const [user, tree] of Object.entries(value.seed?.trees ?? {})) checkTree(tree, `seed.trees.${user}`, source);
}

function checkTree(tree: SeedTree, field: string, source: string): void {
  if (tree === 'demo') return;
  checkUniqueNames(tree, (i) => `${field}[${i}]`, source);
  walkSeed(
    tree,
    field,
    (node) => node.children,
    (node, place) => checkNode(node, place, source),
  );
}

/** One name once per container (compared as NFC, as the store compares them). */
function checkUniqueNames(nodes: readonly SeedNode[], fieldAt: (i: number) => string, source: string): void {
  const names = new Set<string>();
  nodes.forEach((node, i) => {
    const raw = node.container ?? node.file;
    if (raw === undefined) return; // reported by checkNode
    const name = raw.normalize('NFC');
    if (names.has(name)) throw new ScenarioError(source, fieldAt(i), `"${name}" appears twice in one container`);
    names.add(name);
  });
}

function checkNode(node: SeedNode, place: SeedPlace, source: string): void {
  const fail = (sub: string, problem: string): never => {
    const field = fieldOfPlace(place);
    throw new ScenarioError(source, `${field}${sub ? `.${sub}` : ''}`, problem);
  };
  if ((node.container === undefined) === (node.file === undefined)) fail('', 'needs exactly one of container or file');
  const name = (node.container ?? node.file)!;
  try {
    checkName(name);
  } catch (err) {
    // The store's own rule for names, so a seed cannot hold a name a client could not create.
    if (!(err instanceof DomainError)) throw err;
    fail(node.container !== undefined ? 'container' : 'file', `"${name}" is not a valid name: ${err.message}`);
  }
  const contents = (['text', 'base64', 'fixture'] as const).filter((k) => node[k] !== undefined);
  if (node.container !== undefined) {
    for (const key of [...contents, 'mimeType', 'public'] as const)
      if (node[key] !== undefined) fail(key, 'applies to files only');
    if (node.children) checkUniqueNames(node.children, (i) => `${fieldOfPlace(place)}.children[${i}]`, source);
    return;
  }
  if (node.children) fail('children', 'applies to containers only');
  if (contents.length > 1) fail(contents[1]!, `give one content: ${contents.join(' or ')}`);
  if (node.base64 !== undefined && !BASE64.test(node.base64)) fail('base64', 'is not valid base64');
}
