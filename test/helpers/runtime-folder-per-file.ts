// Control commands find a mock started in their folder through the runtime folder (XDG_RUNTIME_DIR/csp-mock), and
// every test file runs in the repo's folder, side by side with others: each file gets a runtime folder of its own,
// so a `serve` another file started is never "the mock started in this folder" to this file's commands, and an
// address a killed run left behind is never read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'csp-mock-test-runtime-'));
const before = process.env['XDG_RUNTIME_DIR'];
process.env['XDG_RUNTIME_DIR'] = folder;
afterAll(() => {
  if (before === undefined) delete process.env['XDG_RUNTIME_DIR'];
  else process.env['XDG_RUNTIME_DIR'] = before;
  rmSync(folder, { recursive: true, force: true });
});
