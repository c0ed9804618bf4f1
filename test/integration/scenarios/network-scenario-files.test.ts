import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp, type ScenarioDefinition } from '../../../src/index.js';
import { bytesPerSecond } from '../../../src/scenarios/network/byte-rate.js';

const rule = { match: { method: 'PUT', path: '/dav/**' } };

describe('network conditions in scenario files', () => {
  it.each<[string | number, number]>([
    ['256 KiB/s', 262_144],
    ['1 Mbit/s', 125_000],
    ['256 kbit/s', 32_000],
    [' 1.5 MiB/s ', 1_572_864],
    ['500 kB/s', 500_000],
    [4096, 4096],
  ])('reads the rate %s as %d bytes per second', (rate, bytes) => {
    expect(bytesPerSecond(rate)).toBe(bytes);
  });

  it('loads every kind, the network block merged field by field over the parent', async () => {
    const app = await createApp({
      scenario: {
        extends: 'mobile-network',
        network: { slice: { bytes: 512, delayMs: 10 } },
        faults: [
          { ...rule, stallUpload: { afterBytes: 1024, ms: 100 }, respond: { status: 408 } },
          {
            match: { method: 'GET', path: '/**' },
            bandwidth: { down: '64 KiB/s' },
            hang: { afterBytes: 10, ms: 50, then: 'reset' },
            slowClose: { ms: 5 },
          },
        ],
      },
    });
    expect(app.scenario.network).toEqual({
      bandwidth: { down: '1 Mbit/s', up: '256 kbit/s' },
      slice: { bytes: 512, delayMs: 10 },
    });
    expect(app.scenario.faults).toHaveLength(3);
    await app.close();
  });

  it("loads the scenario reference's network example as written, one rule of each kind", async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../scenarios/README.md', import.meta.url)), 'utf8');
    const marker = '<!-- file: scenarios/bad-train.json -->';
    const json = /```json\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)))![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'csp-mock-network-'));
    try {
      writeFileSync(join(dir, 'bad-train.json'), json);
      const app = await createApp({ scenario: join(dir, 'bad-train.json') });
      expect(app.scenario.name).toBe('bad-train');
      expect(Object.keys(app.scenario.network ?? {})).toEqual(['bandwidth', 'slice']);
      const kinds = app.scenario.faults.flatMap((f) =>
        ['bandwidth', 'slice', 'hang', 'slowClose', 'stallUpload'].filter((k) => k in f),
      );
      expect(new Set(kinds)).toEqual(new Set(['stallUpload', 'hang', 'bandwidth', 'slowClose']));
      await app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const cases: [string, ScenarioDefinition, string][] = [
    [
      'a rate without a unit',
      { network: { bandwidth: { down: '256' } } },
      'network.bandwidth.down: has none of the allowed forms',
    ],
    [
      'a rate of zero',
      { faults: [{ ...rule, bandwidth: { up: '0 bit/s' } }] },
      'faults[0].bandwidth.up: has none of the allowed forms',
    ],
    ['an empty bandwidth', { network: { bandwidth: {} } }, 'network.bandwidth: must NOT have fewer than 1 properties'],
    [
      'jitter as large as the slice',
      { network: { slice: { bytes: 10, jitterBytes: 10, delayMs: 1 } } },
      'network.slice.jitterBytes: must be smaller than bytes',
    ],
    ['a hang in the network block', { network: { hang: {} } as never }, 'network.hang: is not a known field'],
    [
      'hang.then without ms',
      { faults: [{ ...rule, hang: { then: 'reset' } }] },
      'faults[0].hang.then: applies only with hang.ms',
    ],
    [
      'a hang with truncateAfterBytes',
      { faults: [{ ...rule, hang: {}, truncateAfterBytes: 3 }] },
      'faults[0].hang: cannot go with truncateAfterBytes',
    ],
    [
      'a hang with connection',
      { faults: [{ ...rule, hang: { ms: 1 }, connection: 'reset' }] },
      'faults[0].connection: give the end of a hang as hang.then',
    ],
    [
      'a request hang with respond',
      { faults: [{ ...rule, hang: { of: 'request' }, respond: { status: 408 } }] },
      'faults[0].hang: of "request" sends no answer',
    ],
    [
      'a request hang with stallUpload',
      { faults: [{ ...rule, hang: { of: 'request' }, stallUpload: { afterBytes: 1 } }] },
      'faults[0].hang: give one of',
    ],
    [
      'stallUpload.ms without an ending',
      { faults: [{ ...rule, stallUpload: { afterBytes: 1, ms: 5 } }] },
      'faults[0].stallUpload.ms: needs an ending',
    ],
    [
      'stallUpload with truncateAfterBytes',
      { faults: [{ ...rule, stallUpload: { afterBytes: 1 }, truncateAfterBytes: 1 }] },
      'faults[0].truncateAfterBytes: cannot go with stallUpload',
    ],
    [
      'a reset with a slice',
      { faults: [{ ...rule, connection: 'reset', slice: { bytes: 1, delayMs: 1 } }] },
      'faults[0].connection: "reset" sends no answer to shape',
    ],
    [
      'a slowClose without ms',
      { faults: [{ ...rule, slowClose: {} as never }] },
      'faults[0].slowClose.ms: is required',
    ],
  ];
  it.each(cases)('refuses %s, naming the field', async (_what, scenario, message) => {
    await expect(createApp({ scenario })).rejects.toThrow(message);
  });
});
