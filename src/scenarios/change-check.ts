import { ScenarioError } from './scenario-error.js';
import { CHANGE_KINDS, type DeviceChange } from './types.js';
import type { ScenarioSection } from './section.js';

/**
 * The second device's `changes`, as a scenario has them (each with its trigger, a parent's first under `extends`)
 * or as sent to run now (no trigger).
 */
export const changesSection = (where: 'scenario' | 'now'): ScenarioSection => ({
  field: 'changes',
  definitions: ['change', 'changeTrigger'],
  check: (value, { source }) =>
    (value as DeviceChange[]).forEach((change, i) => checkChange(change, `changes[${i}]`, source, where)),
  merge: (parent, own) => [...((parent as []) ?? []), ...((own as []) ?? [])],
});

export const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Which fields go with which kind (the schema lists them all; this says where each belongs). */
const FIELDS_OF: Record<string, readonly string[]> = {
  to: ['rename', 'move'],
  text: ['create', 'overwrite'],
  base64: ['create', 'overwrite'],
  mimeType: ['create'],
  set: ['metadata'],
  add: ['tags'],
  remove: ['metadata', 'tags'],
};

/**
 * The rules between a change's fields, which the schema cannot say. In a scenario every change needs
 * a trigger; a change sent at run time applies at once and takes none.
 */
function checkChange(change: DeviceChange, field: string, source: string, where: 'scenario' | 'now'): void {
  const fail = (sub: string, problem: string): never => {
    throw new ScenarioError(source, sub ? `${field}.${sub}` : field, problem);
  };
  const fields = change as unknown as Record<string, unknown>;
  const kinds = CHANGE_KINDS.filter((k) => fields[k] !== undefined);
  if (kinds.length !== 1)
    fail('', `needs exactly one of ${CHANGE_KINDS.join(', ')}${kinds.length ? ` (got ${kinds.join(', ')})` : ''}`);
  const kind = kinds[0]!;
  for (const [name, owners] of Object.entries(FIELDS_OF))
    if (fields[name] !== undefined && !owners.includes(kind)) fail(name, `does not go with ${kind}`);
  if ((kind === 'rename' || kind === 'move') && fields['to'] === undefined) fail('to', `is required with ${kind}`);
  if (kind === 'rename' && String(fields['to']).includes('/')) fail('to', 'is the new name, without a "/"');
  if (kind === 'move' && !String(fields['to']).startsWith('/'))
    fail('to', 'is the destination folder\'s path, from "/"');
  if (fields['text'] !== undefined && fields['base64'] !== undefined)
    fail('base64', 'give one content: text or base64');
  if (typeof fields['base64'] === 'string' && !BASE64.test(fields['base64'])) fail('base64', 'is not valid base64');
  if (kind === 'metadata' && fields['set'] === undefined && fields['remove'] === undefined)
    fail('', 'metadata needs set or remove');
  if (kind === 'tags' && fields['add'] === undefined && fields['remove'] === undefined)
    fail('', 'tags needs add or remove');
  const path = fields[kind];
  if (kind !== 'quota' && kind !== 'createFolder' && kind !== 'create' && path === '/')
    fail(kind, 'names the root folder, which this change cannot apply to');
  if (where === 'scenario' && change.trigger === undefined)
    fail(
      'trigger',
      'is required in a scenario ({"match": ..., "nth": N} or {"delayMs": N}); run-time changes apply at once',
    );
  if (where === 'now' && change.trigger !== undefined)
    fail('trigger', "applies in a scenario's changes; a change sent at run time applies at once");
}
