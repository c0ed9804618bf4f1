// yargs checks its own invariants with node:assert, which takes about 5 ms to load; it is loaded only to
// report a failed check (same conditions as assert's: Object.is), so the error is assert's own.
exports.notStrictEqual = (actual, expected, message) => {
  if (Object.is(actual, expected)) require('node:assert').notStrictEqual(actual, expected, message);
};
exports.strictEqual = (actual, expected, message) => {
  if (!Object.is(actual, expected)) require('node:assert').strictEqual(actual, expected, message);
};
