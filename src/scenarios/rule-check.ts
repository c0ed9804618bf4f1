import { ScenarioError } from './scenario-error.js';
import { checkConditions } from './network/network-conditions.js';
import { isLogNormal, LatencyError, logNormalOf } from './latency-sampler.js';
import type { FaultRule, Latency } from './types.js';

// The scenario-wide `latency` is checked here too: it is the delay a rule carries, applied to every request.

/** The rules between a fault rule's fields, which the schema cannot say; throws ScenarioError. */
export function checkRule(rule: FaultRule, field: string, source: string): void {
  const fail = (sub: string, problem: string): never => {
    throw new ScenarioError(source, sub ? `${field}.${sub}` : field, problem);
  };
  if (rule.probability !== undefined && rule.seed === undefined)
    fail('seed', 'is required with probability (reproducible flakiness)');
  if (rule.seed !== undefined && rule.probability === undefined) fail('seed', 'only applies with probability');
  const reset = rule.connection === 'reset';
  const truncate = rule.truncateAfterBytes !== undefined;
  const conditions = CONDITIONS.filter((k) => rule[k] !== undefined);
  if (rule.afterCommit !== undefined) return checkAfterCommit(rule, fail);
  const delays = rule.delayMs !== undefined || rule.latency !== undefined;
  if (!rule.respond && !rule.connection && !truncate && !rule.cors && !delays && conditions.length === 0) {
    fail(
      '',
      `needs an action: respond, connection, truncateAfterBytes, cors, delayMs, latency or one of ${CONDITIONS.join(', ')}`,
    );
  }
  if (rule.cors && reset) fail('cors', 'drops headers from an answer, so it cannot go with connection "reset"');
  if (rule.respond && reset) fail('connection', '"reset" sends no response, so it cannot go with respond');
  if (rule.respond && truncate) fail('truncateAfterBytes', 'truncates the real response, so it cannot go with respond');
  if (reset && truncate) fail('truncateAfterBytes', 'cannot go with connection "reset"');
  if (rule.respond?.delayMs !== undefined && rule.delayMs !== undefined)
    fail('delayMs', 'give one delay: respond.delayMs or delayMs');
  if (rule.latency && (rule.delayMs !== undefined || rule.respond?.delayMs !== undefined))
    fail('latency', 'give one delay: latency (drawn) or delayMs (fixed)');
  if (rule.latency) checkLatency(rule.latency, `${field}.latency`, source);
  checkConditions(rule, field, source);
  checkHoldCombinations(rule, fail);
}

/** A uniform latency's bounds in order; a log-normal's median and p99 readable and in order. */
export function checkLatency(latency: Latency, field: string, source: string): void {
  if (!isLogNormal(latency)) {
    if (latency.maxMs !== undefined && latency.maxMs < latency.minMs)
      throw new ScenarioError(source, `${field}.maxMs`, 'must not be below minMs');
    return;
  }
  try {
    logNormalOf(latency);
  } catch (err) {
    if (err instanceof LatencyError) throw new ScenarioError(source, `${field}.${err.field}`, err.message);
    throw err;
  }
}

const CONDITIONS = ['bandwidth', 'slice', 'hang', 'slowClose', 'stallUpload'] as const;

/** An ambiguous commit owns the answer: only the match, the counters and a delay go with it. */
function checkAfterCommit(rule: FaultRule, fail: (sub: string, problem: string) => never): void {
  for (const key of ['respond', 'connection', 'truncateAfterBytes', ...CONDITIONS] as const)
    if (rule[key] !== undefined) fail(key, 'cannot go with afterCommit (it replaces the answer)');
  if (typeof rule.afterCommit === 'object' && rule.afterCommit.delayMs !== undefined)
    fail('afterCommit.delayMs', "give the delay as the rule's delayMs (it comes before the request is handled)");
}

/** A hang or a stalled upload owns how the connection ends; the other actions must not contradict it. */
function checkHoldCombinations(rule: FaultRule, fail: (sub: string, problem: string) => never): void {
  const { hang, stallUpload } = rule;
  const truncate = rule.truncateAfterBytes !== undefined;
  const shapesAnswer =
    rule.bandwidth?.down !== undefined || rule.slice || rule.slowClose || (hang && hang.of !== 'request');
  if (hang?.then !== undefined && hang.ms === undefined) fail('hang.then', 'applies only with hang.ms');
  if (hang && truncate) fail('hang', 'cannot go with truncateAfterBytes (both cut the answer)');
  if (stallUpload && truncate) fail('truncateAfterBytes', 'cannot go with stallUpload (the service never answers)');
  if (stallUpload?.ms !== undefined && !rule.respond && !rule.connection) {
    fail('stallUpload.ms', 'needs an ending after it: respond, or connection "close" or "reset"');
  }
  if (hang?.of === 'request') {
    if (stallUpload) fail('hang', 'give one of hang (of "request") and stallUpload');
    if (rule.respond || rule.connection)
      fail('hang', 'of "request" sends no answer; use stallUpload to answer after a stall');
  } else if (hang && rule.connection) {
    fail('connection', 'give the end of a hang as hang.then');
  }
  if (rule.connection === 'reset' && !stallUpload && shapesAnswer)
    fail('connection', '"reset" sends no answer to shape');
}
