// Replay's memory follows the recording: lines are parsed one at a time and bodies kept as bytes
// (sidecars stay on disk), never the whole file as text or base64 strings. Proven in a child process
// whose heap is far smaller than the recording.
import { execFile } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempDir } from './support.js';

const run = promisify(execFile);
const DIST_INDEX = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));
const MIB = 1024 * 1024;

/** A recording of `count` exchanges, each with a 1 MiB inline body (base64 and text in turn). */
function writeBigRecording(file: string, count: number): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(
      fd,
      `${JSON.stringify({ format: 'csp-mock-recording', version: 2, baseUrl: '{{baseUrl}}', redacted: [] })}\n`,
    );
    const binary = Buffer.alloc(768 * 1024);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) & 255;
    for (let id = 1; id <= count; id++) {
      const body = id % 2 ? { base64: binary.toString('base64') } : { text: 'x'.repeat(MIB) };
      const exchange = {
        id,
        request: { method: 'GET', path: `/v2/files/f${id}/content`, query: [], headers: {} },
        response: { status: 200, headers: { 'content-type': 'application/octet-stream' }, body },
      };
      writeSync(fd, `${JSON.stringify(exchange)}\n`);
    }
  } finally {
    closeSync(fd);
  }
}

describe('replay memory follows the recording, not a multiple of it', () => {
  const tmp = useTempDir();

  it('a 48 MiB recording replays in a process whose heap is limited to 32 MiB', async () => {
    const file = join(tmp.path, 'big.jsonl');
    writeBigRecording(file, 48);
    const program = `
      const { startMock } = await import(${JSON.stringify(DIST_INDEX)});
      const mock = await startMock({ mode: { kind: 'replay', recording: ${JSON.stringify(file)} } });
      const odd = await fetch(mock.url + '/v2/files/f47/content');
      const even = await fetch(mock.url + '/v2/files/f48/content');
      const sizes = [(await odd.arrayBuffer()).byteLength, (await even.arrayBuffer()).byteLength];
      await mock.close();
      console.log(JSON.stringify({ statuses: [odd.status, even.status], sizes }));
    `;
    const { stdout } = await run(process.execPath, ['--max-old-space-size=32', '--input-type=module', '-e', program], {
      maxBuffer: MIB,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ statuses: [200, 200], sizes: [768 * 1024, MIB] });
  });
});
