import { parseDuration } from '../clock/durations.js';
import type { DeviceChange, FaultRule } from '../scenarios/types.js';

/** An edit explore makes in the synced folder between passes (paths from the folder's root, "/Documents/a.txt"). */
export type LocalEdit =
  | { create: string; text: string }
  | { modify: string; text: string }
  | { delete: string }
  /** A new name in the same folder. */
  | { rename: string; to: string }
  /** Into another folder (a path), keeping the name. */
  | { move: string; to: string };

/**
 * One step of a schedule: a client pass under faults and triggered second-device changes (an inline
 * scenario, armed for that pass only), an edit in the folder, a second-device change now, or a jump of the
 * mock's clock (a duration, "2d", "-1h").
 */
export type Step =
  | { pass: { faults?: FaultRule[]; changes?: DeviceChange[] } }
  | { local: LocalEdit }
  | { device: DeviceChange }
  | { clock: string };

/** What a schedule draws from: `--kinds`. */
export const STEP_KINDS = ['faults', 'local', 'device', 'clock'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const MAX_STEPS = 1000;
const MAX_TEXT = 1024 * 1024;
const LOCAL_KINDS = ['create', 'modify', 'delete', 'rename', 'move'] as const;
const DURATION = /^-?\d{1,6}(ms|s|m|h|d|w)$/;

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The path a rename (a new name in the same folder) or a move (into the folder `to`) gives `from`. */
export const movedPath = (from: string, how: 'rename' | 'move', to: string): string =>
  how === 'rename'
    ? `${from.slice(0, from.lastIndexOf('/'))}/${to}`
    : `${to === '/' ? '' : to}${from.slice(from.lastIndexOf('/'))}`;

/** What a change or a local edit does: its one key that is not a detail ("rename", "delete", ...). */
export const changeKindOf = (change: object): string =>
  Object.keys(change).find(
    (k) => !['user', 'trigger', 'text', 'base64', 'mimeType', 'to', 'set', 'remove', 'add'].includes(k),
  ) ?? 'a change';

/** A path inside the folder: from its root, no empty, "." or ".." segments, no NUL. */
export function checkLocalPath(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 4096)
    throw new ScheduleError(`${field}: must be a path from the folder's root, e.g. "/Documents/a.txt"`);
  const segments = value.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0')))
    throw new ScheduleError(
      `${field}: must not hold an empty, "." or ".." segment or a NUL (got ${JSON.stringify(value)})`,
    );
  return value;
}

function checkLocal(edit: unknown, field: string): LocalEdit {
  if (!isObject(edit))
    throw new ScheduleError(`${field}: must be an object such as {"create": "/a.txt", "text": "hi"}`);
  const kinds = LOCAL_KINDS.filter((k) => k in edit);
  if (kinds.length !== 1)
    throw new ScheduleError(
      `${field}: must name exactly one of ${LOCAL_KINDS.join(', ')} (got ${Object.keys(edit).join(', ') || 'none'})`,
    );
  const kind = kinds[0]!;
  const allowed = kind === 'create' || kind === 'modify' ? ['text'] : kind === 'delete' ? [] : ['to'];
  const extra = Object.keys(edit).find((k) => k !== kind && !allowed.includes(k));
  if (extra !== undefined) throw new ScheduleError(`${field}.${extra}: not a field of a local ${kind}`);
  checkLocalPath(edit[kind], `${field}.${kind}`);
  if (allowed.includes('text') && (typeof edit['text'] !== 'string' || edit['text'].length > MAX_TEXT))
    throw new ScheduleError(`${field}.text: must be a string of at most ${MAX_TEXT} characters`);
  if (
    kind === 'rename' &&
    (typeof edit['to'] !== 'string' || !/^[^/\0]+$/.test(edit['to']) || edit['to'] === '..' || edit['to'] === '.')
  )
    throw new ScheduleError(`${field}.to: must be a new name (no "/")`);
  if (kind === 'move') checkLocalPath(edit['to'], `${field}.to`);
  return edit as LocalEdit;
}

/**
 * Reads a schedule from a file someone sent: the shape of each step, its paths and durations. A pass's
 * faults and changes and a device change are the scenario format's: the mock's own loader checks them
 * (explore arms each once before a run, see run-schedule.ts). Throws ScheduleError naming the field.
 */
export function checkSchedule(value: unknown, field = 'steps'): Step[] {
  if (!Array.isArray(value)) throw new ScheduleError(`${field}: must be a list of steps`);
  if (value.length > MAX_STEPS) throw new ScheduleError(`${field}: at most ${MAX_STEPS} steps (got ${value.length})`);
  return value.map((step: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(step) || Object.keys(step).length !== 1)
      throw new ScheduleError(`${at}: must be an object with one of "pass", "local", "device", "clock"`);
    const [kind, body] = Object.entries(step)[0]!;
    switch (kind) {
      case 'pass': {
        if (!isObject(body))
          throw new ScheduleError(`${at}.pass: must be an object ({} or {"faults": [...], "changes": [...]})`);
        const extra = Object.keys(body).find((k) => k !== 'faults' && k !== 'changes');
        if (extra !== undefined)
          throw new ScheduleError(`${at}.pass.${extra}: a pass takes only "faults" and "changes"`);
        for (const list of ['faults', 'changes'] as const)
          if (body[list] !== undefined && (!Array.isArray(body[list]) || body[list].some((r: unknown) => !isObject(r))))
            throw new ScheduleError(`${at}.pass.${list}: must be a list of objects`);
        return step as Step;
      }
      case 'local':
        return { local: checkLocal(body, `${at}.local`) };
      case 'device':
        if (!isObject(body) || 'trigger' in body)
          throw new ScheduleError(
            `${at}.device: must be one change applied now (no "trigger"), e.g. {"delete": "/a.txt"}`,
          );
        return step as Step;
      case 'clock':
        if (typeof body !== 'string' || !DURATION.test(body))
          throw new ScheduleError(
            `${at}.clock: must be a duration such as "90s", "2d" or "-1h" (got ${JSON.stringify(body)?.slice(0, 40)})`,
          );
        try {
          parseDuration(body);
        } catch (err) {
          throw new ScheduleError(`${at}.clock: ${(err as Error).message}`);
        }
        return step as Step;
      default:
        throw new ScheduleError(`${at}.${kind}: not a step kind (one of "pass", "local", "device", "clock")`);
    }
  });
}

/** One line for a person: "pass under reset of the 1st PUT", "local rename /a.txt to b.txt". */
export function stepText(step: Step): string {
  if ('pass' in step) {
    const parts = [
      ...(step.pass.faults ?? []).map((f) => f.name ?? 'a fault'),
      ...(step.pass.changes ?? []).map((c) => `second device: ${deviceText(c)}`),
    ];
    return parts.length ? `client pass under ${parts.join('; ')}` : 'client pass';
  }
  if ('local' in step) return `local ${deviceText(step.local as unknown as Record<string, unknown>)}`;
  if ('device' in step) return `second device: ${deviceText(step.device)}`;
  return `mock clock ${step.clock.startsWith('-') ? step.clock : `+${step.clock}`}`;
}

function deviceText(change: object): string {
  const c = change as Record<string, unknown>;
  const kind = changeKindOf(c);
  const to = typeof c['to'] === 'string' ? ` to ${c['to']}` : '';
  const trigger =
    isObject(c['trigger']) && isObject(c['trigger']['match'])
      ? ` when the client's ${String(c['trigger']['match']['method'])} is handled`
      : '';
  return `${kind} ${String(c[kind])}${to}${trigger}`;
}

/** What a fault does, in a few words, from the rule itself (so a replayed schedule is labelled alike). */
export function faultLabel(rule: FaultRule): string {
  if (rule.afterCommit)
    return `ambiguous commit (${typeof rule.afterCommit === 'string' ? rule.afterCommit : rule.afterCommit.status})`;
  if (rule.stallUpload) return 'stalled upload';
  if (rule.truncateAfterBytes !== undefined) return 'truncated download';
  if (rule.respond) {
    const retryAfter = Object.keys(rule.respond.headers ?? {}).some((h) => h.toLowerCase() === 'retry-after');
    return `${rule.respond.status}${retryAfter ? ' with Retry-After' : rule.respond.status >= 500 && rule.respond.status !== 507 ? ' without Retry-After' : ''}`;
  }
  if (rule.connection) return `connection ${rule.connection}`;
  return 'a fault';
}
