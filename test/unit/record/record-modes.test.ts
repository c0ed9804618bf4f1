import { describe, expect, it } from 'vitest';
import { RECORD_MODES, RECORD_MODE_STRATEGIES } from '../../../src/record/record-modes.js';

describe('the record modes, one strategy each', () => {
  it.each([
    ['once', false, false, { kind: 'record', append: false }],
    ['once', true, false, { kind: 'replay', onMiss: 'error', repeatLast: true }],
    ['new', false, false, { kind: 'record', append: false }],
    ['new', true, false, { kind: 'replay', onMiss: 'proxy', repeatLast: false }],
    ['all', true, false, { kind: 'record', append: false }],
    ['all', true, true, { kind: 'record', append: true }],
  ] as const)('%s with a recording that exists: %s (append %s) plans %j', (mode, exists, append, plan) => {
    expect(RECORD_MODE_STRATEGIES[mode].plan(exists, append)).toEqual(plan);
  });

  it('has a strategy, with a description for --help, for every mode the CLI offers', () => {
    for (const mode of RECORD_MODES) expect(RECORD_MODE_STRATEGIES[mode].describe).not.toBe('');
  });
});
