import { execFile } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readRecording, verifyRecording } from '../../../src/index.js';
import { EXAMPLE_RECORDING, readJson, RECORDINGS_DIR, storedText, useTempDir } from './support.js';

const CLI = resolve(fileURLToPath(new URL('../../../dist/cli/bin.js', import.meta.url)));
const run = promisify(execFile);

async function verifyCli(file: string, ...extra: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, 'verify', '--recording', file, ...extra]);
    return { code: 0, stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

/** A copy of the example recording with one entity's name and one status changed. */
async function alteredCopy(dir: string): Promise<{ file: string; renamedId: number; statusId: number }> {
  await cp(RECORDINGS_DIR, dir, { recursive: true });
  const file = join(dir, 'example-session.jsonl');
  const doc = await readJson(file);
  const entity = doc.exchanges.find(
    (e) => e.request.method === 'GET' && /^\/v2\/files\/[^/]+$/.test(e.request.path) && e.response.status === 200,
  );
  const text = storedText(entity!.response.body)!;
  entity!.response.body = { text: text.replace('<name>notes.txt</name>', '<name>notes-renamed.txt</name>') };
  const refused = doc.exchanges.find((e) => e.response.status === 415)!;
  refused.response.status = 400;
  await writeFile(file, JSON.stringify(doc, null, 2));
  return { file, renamedId: entity!.id, statusId: refused.id };
}

describe('verify: the emulator against a recording', () => {
  const tmp = useTempDir();

  it('passes on a recording the emulator made: ids matched by position, timestamps as numbers', async () => {
    const report = await verifyRecording(await readRecording(EXAMPLE_RECORDING));
    expect(report.differing).toEqual([]);
    expect(report.total).toBe(21);
    expect(report.text).toContain('verify: 21 exchange(s), 21 match, 0 differ');
  });

  it('fails on an altered recording, naming each differing exchange with a readable diff', async () => {
    const { file, renamedId, statusId } = await alteredCopy(tmp.path);
    const report = await verifyRecording(await readRecording(file));
    expect(report.differing.map((d) => d.id)).toEqual([renamedId, statusId].sort((a, b) => a - b));
    const renamed = report.differing.find((d) => d.id === renamedId)!;
    expect(renamed.differences).toContain('body /file/name text: expected "notes-renamed.txt", got "notes.txt"');
    const status = report.differing.find((d) => d.id === statusId)!;
    expect(status.differences).toContain('status: expected 400, got 415');
    expect(report.text).toContain(`exchange ${renamedId}: GET /v2/files/`);
    expect(report.text).toContain('verify: 21 exchange(s), 19 match, 2 differ');
  });

  it('CLI: exits 0 when nothing differs and 1, printing the exchanges, when something does', async () => {
    const ok = await verifyCli(EXAMPLE_RECORDING);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('0 differ');
    const { file, statusId } = await alteredCopy(tmp.path);
    const bad = await verifyCli(file);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`exchange ${statusId}: POST /v2/containers/`);
    expect(bad.stdout).toContain('status: expected 400, got 415');
  });

  it('CLI --scenario: the fresh emulator runs that scenario (expired-credentials makes every exchange differ)', async () => {
    const res = await verifyCli(EXAMPLE_RECORDING, '--scenario', 'expired-credentials');
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('exchange 1: GET /v2');
    expect(res.stdout).toContain('status: expected 200, got 401');
  });
});
