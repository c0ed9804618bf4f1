import { checkClockSettings } from '../clock/mock-clock.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { MockOptions } from '../options.js';
import type { ScenarioDefinition } from '../scenarios/types.js';

/** A tenant's name: its path segment (/t/<name>), so nothing that could leave it or need encoding. */
export const TENANT_NAME = /^[a-z0-9-]{1,40}$/;

export const TENANT_NAME_RULE = '1 to 40 characters of a-z, 0-9 and -';

/** The name, or a 400 that says what a name may hold (never echoing what was sent). */
export function checkTenantName(value: unknown): string {
  if (typeof value === 'string' && TENANT_NAME.test(value)) return value;
  if (value === undefined) throw badRequest(`name is required: ${TENANT_NAME_RULE}`);
  throw badRequest(`name must be ${TENANT_NAME_RULE}`);
}

/** The options a tenant takes over HTTP, each bounded; everything else is the server's own. */
const FIELDS = ['name', 'scenario', 'seed', 'users', 'clock', 'strict', 'journalSize', 'journalBodies'] as const;

const MAX_USERS = 100;
const MAX_LOGIN_CHARS = 256;
const MAX_JOURNAL_SIZE = 10_000;
const MAX_JOURNAL_BODIES = 64 * 1024;

/** What POST /__admin/tenants asked for, checked whole. */
export interface TenantRequest {
  name: string;
  /** Only the fields the body gave. */
  options: MockOptions;
  /** The body named a scenario: it is loaded as one sent over HTTP (names only, fixtures in ./scenarios). */
  scenarioGiven: boolean;
}

/**
 * Reads an admin body (untrusted): `{"name": "w1", "scenario": NAME | {inline}, "seed": "empty", "users":
 * {...}, "clock": {...}, "strict": true, "journalSize": N, "journalBodies": N}`. Throws a 400 naming the field.
 */
export function parseTenantRequest(body: unknown): TenantRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest(
      'send a JSON object: {"name": "w1", "scenario": "NAME"} (scenario and the other options optional)',
    );
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0)
    throw badRequest(`a tenant takes ${FIELDS.join(', ')}; not ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const name = checkTenantName(fields['name']);
  const options: MockOptions = {};
  const scenario = fields['scenario'];
  if (scenario !== undefined) options.scenario = scenarioOf(scenario);
  const seed = fields['seed'];
  if (seed !== undefined) {
    if (seed !== 'demo' && seed !== 'empty') throw badRequest('seed must be "demo" or "empty"');
    options.seed = seed;
  }
  if (fields['users'] !== undefined) options.users = usersOf(fields['users']);
  if (fields['clock'] !== undefined) options.clock = clockOf(fields['clock']);
  const strict = fields['strict'];
  if (strict !== undefined) {
    if (typeof strict !== 'boolean') throw badRequest('strict must be true or false');
    options.strict = strict;
  }
  options.journalSize = wholeNumber(fields['journalSize'], 'journalSize', MAX_JOURNAL_SIZE);
  options.journalBodies = wholeNumber(fields['journalBodies'], 'journalBodies', MAX_JOURNAL_BODIES);
  for (const key of ['journalSize', 'journalBodies'] as const) if (options[key] === undefined) delete options[key];
  return { name, options, scenarioGiven: scenario !== undefined };
}

/** A name (built-in or ./scenarios; loading refuses a path) or an inline scenario, as PUT /__admin/scenario takes. */
function scenarioOf(value: unknown): string | ScenarioDefinition {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as ScenarioDefinition;
  throw badRequest('scenario must be a scenario name or an inline scenario object');
}

function usersOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('users must be an object of login name to password');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 || entries.length > MAX_USERS) throw badRequest(`users must name 1 to ${MAX_USERS} logins`);
  // No prototype: "__proto__" is a login like any other.
  const users = Object.create(null) as Record<string, string>;
  for (const [login, password] of entries) {
    if (login === '' || login.includes(':') || login.length > MAX_LOGIN_CHARS)
      throw badRequest(`users: a login name must be 1 to ${MAX_LOGIN_CHARS} characters without ":"`);
    if (typeof password !== 'string' || password.length > MAX_LOGIN_CHARS)
      throw badRequest(`users: the password of a login must be a string of at most ${MAX_LOGIN_CHARS} characters`);
    users[login] = password;
  }
  return users;
}

function clockOf(value: unknown): MockOptions['clock'] {
  try {
    return checkClockSettings(value);
  } catch (err) {
    throw new HttpError(400, (err as Error).message);
  }
}

function wholeNumber(value: unknown, field: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw badRequest(`${field} must be a whole number from 0 to ${max}`);
  return value;
}
