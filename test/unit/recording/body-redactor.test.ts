import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BodyCapture } from '../../../src/recording/body-capture.js';
import { MAX_REDACTED_BODY, bodyRedactor } from '../../../src/recording/body-redactor.js';
import { REDACTED, redactBody, redactedNames } from '../../../src/http/redaction.js';
import { seededRandom } from '../../../src/scenarios/seeded-random.js';

const NAMES = redactedNames();
const TYPE = 'multipart/form-data; boundary=b';

function part(name: string, value: string, filename?: string): string {
  const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
  return `--b\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`;
}

/** The body redacted a chunk at a time, chunks cut where `cuts` says. */
function streamed(body: Buffer, type: string, cuts: number[]): Buffer {
  const redactor = bodyRedactor(type, NAMES)!;
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, body.length]) {
    out.push(redactor.push(body.subarray(at, cut)));
    at = cut;
  }
  out.push(redactor.end());
  return Buffer.concat(out);
}

describe('a body redacted on its way to a sidecar, a chunk at a time', () => {
  const body = Buffer.from(
    part('note', 'hello') +
      part('password', 'pw-never-kept') +
      part('file', 'z'.repeat(150_000) + 'name="token"\r\n', 'a.bin') +
      part('client_secret', 'cs-never-kept'.repeat(10_000)) +
      part('keep', 'visible') +
      '--b--\r\n',
    'latin1',
  );

  it('a multipart body cut anywhere (one byte at a time near each field, random elsewhere) gives what redactBody gives whole', () => {
    const whole = redactBody(body, TYPE, NAMES, REDACTED);
    expect(whole.toString('latin1')).not.toContain('never-kept');
    const bytewise = [];
    for (let i = 0; i < 200; i++) bytewise.push(i);
    expect(streamed(body, TYPE, bytewise).equals(whole)).toBe(true);
    const random = seededRandom(7);
    for (let round = 0; round < 20; round++) {
      const cuts: number[] = [];
      for (let at = 0; at < body.length; at += 1 + Math.floor(random() * 70_000)) cuts.push(at);
      expect(streamed(body, TYPE, cuts).equals(whole)).toBe(true);
    }
  });

  it('JSON and form bodies are redacted whole; other types have no redactor', () => {
    const json = Buffer.from(JSON.stringify({ pad: 'p'.repeat(100_000), password: 'pw-never-kept' }));
    expect(streamed(json, 'application/json', [10, 50_000])).toEqual(
      redactBody(json, 'application/json', NAMES, REDACTED),
    );
    const form = Buffer.from(`a=${'p'.repeat(100_000)}&token=tok-never-kept`);
    const type = 'application/x-www-form-urlencoded';
    expect(streamed(form, type, [99_000]).toString()).toContain('&token=[redacted]');
    expect(bodyRedactor('application/octet-stream', NAMES)).toBeUndefined();
  });

  it('a JSON body over the 16 MiB that can be redacted is not kept: no sidecar is written and nothing is stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'body-redactor-'));
    try {
      const target = { absolute: join(dir, 'bodies', '1-request.bin'), relative: '1-request.bin' };
      const capture = new BodyCapture(64 * 1024, () => target, bodyRedactor('application/json', NAMES));
      const chunk = Buffer.from(`{"password":"pw-never-kept","pad":"${'p'.repeat(1024 * 1024)}`);
      const chunks = Array.from({ length: Math.ceil(MAX_REDACTED_BODY / chunk.length) + 1 }, () => chunk);
      await pipeline(Readable.from(chunks), capture);
      expect(capture.omitted).toBe(true);
      expect(capture.stored()).toBeUndefined();
      expect(existsSync(target.absolute)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
