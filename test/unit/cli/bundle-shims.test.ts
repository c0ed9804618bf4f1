// The CommonJS shims the CLI bundle gives yargs (src/cli/bundle/): same answers and errors as what they
// stand for, with the real module loaded only when needed.
import assert from 'node:assert';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';

const load = createRequire(new URL('../../../src/cli/bundle/', import.meta.url));
const lazyAssert = load('./lazy-assert.cjs') as Pick<typeof assert, 'notStrictEqual' | 'strictEqual'>;
/** The part of cliui (untyped) the test uses. */
type Cliui = (opts: { width: number }) => {
  div: (...columns: Array<{ text: string; width?: number } | string>) => void;
};
const cliui = (await import('cliui' as string)) as { default: Cliui };
const lazyCliui = load('./lazy-cliui.cjs') as Cliui;
const lazyWidth = load('./lazy-string-width.cjs') as typeof stringWidth;
type Deprecate = ((message: string) => void) & { function: <F>(fn: F, message?: string) => F };
const lazyDepd = load('./lazy-depd.cjs') as (namespace: string) => Deprecate;
const realDepd = load('depd') as (namespace: string) => Deprecate;

/** The error `fn` throws, or undefined. */
function thrown(fn: () => void): unknown {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('lazy-assert', () => {
  it.each([
    [1, 1],
    [1, 2],
    [NaN, NaN],
    [0, -0],
    ['a', 'a'],
    [undefined, undefined],
    [null, undefined],
  ])('notStrictEqual and strictEqual of %o and %o pass or throw exactly as node:assert', (a, b) => {
    for (const name of ['notStrictEqual', 'strictEqual'] as const) {
      const ours = thrown(() => lazyAssert[name](a, b, 'message'));
      const real = thrown(() => assert[name](a, b, 'message'));
      expect(ours === undefined, name).toBe(real === undefined);
      if (real !== undefined) {
        expect(ours).toBeInstanceOf(assert.AssertionError);
        expect((ours as Error).message).toBe((real as Error).message);
      }
    }
  });
});

describe('lazy-cliui and lazy-string-width', () => {
  it('lay out text exactly as cliui and string-width', () => {
    const text = 'csp-mock serve  run the emulator (REST /v2 and WebDAV /dav over one store)';
    for (const width of [40, 80]) {
      const ours = lazyCliui({ width });
      const real = cliui.default({ width });
      for (const ui of [ours, real]) ui.div({ text, width: 20 }, { text: 'wide: 漢字 and an emoji 👍' });
      expect(ours.toString()).toBe(real.toString());
    }
    for (const s of ['abc', '漢字', '👍', '\u001b[31mred\u001b[39m', '']) expect(lazyWidth(s)).toBe(stringWidth(s));
  });
});

describe('lazy-depd', () => {
  it('reports a deprecation with the namespace and message depd reports, only once it is used', async () => {
    const seen: Array<{ namespace: string; message: string }> = [];
    const listener = (err: Error & { namespace: string }): void => {
      seen.push({ namespace: err.namespace, message: err.message });
    };
    process.on('deprecation', listener);
    try {
      const ours = lazyDepd('csp-mock-test-ours');
      expect(seen).toEqual([]);
      ours('an old way');
      realDepd('csp-mock-test-real')('an old way');
      const wrapped = ours.function(() => 42, 'an old function');
      expect(wrapped()).toBe(42);
    } finally {
      process.off('deprecation', listener);
    }
    expect(seen).toEqual([
      { namespace: 'csp-mock-test-ours', message: 'an old way' },
      { namespace: 'csp-mock-test-real', message: 'an old way' },
      { namespace: 'csp-mock-test-ours', message: 'an old function' },
    ]);
  });
});
