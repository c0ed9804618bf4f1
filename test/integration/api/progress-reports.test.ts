import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMock, type Progress, type RunningMock } from '../../../src/index.js';
import { importHar } from '../../../src/har/har-to-recording.js';
import type { HarEntry } from '../../../src/har/har-types.js';
import { readRecording } from '../../../src/recording/recording-io.js';
import { verifyRecording } from '../../../src/verify/verify-recording.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const running: RunningMock[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const mock of running.splice(0)) await mock.close();
});

/** Every report, and a check that they only grow and end once, with the total. */
function collector(): { reports: Progress[]; onProgress: (p: Progress) => void } {
  const reports: Progress[] = [];
  return { reports, onProgress: (p) => reports.push(p) };
}

function expectOneTask(reports: Progress[], task: Progress['task'], total: number): void {
  const mine = reports.filter((r) => r.task === task);
  expect(mine.length).toBeGreaterThan(1);
  const dones = mine.map((r) => r.done);
  expect(dones).toEqual([...dones].sort((a, b) => a - b));
  expect(mine.every((r) => r.total === total)).toBe(true);
  expect(mine.filter((r) => r.finished)).toEqual([mine.at(-1)]);
  expect(mine.at(-1)).toMatchObject({ done: total, finished: true });
}

describe('onProgress: long work reports how far it is, and the library prints nothing', () => {
  const tmp = useTempDir('progress');

  it('a generated account reports every 1,000 objects of all users, then its end; nothing goes to stdout or stderr', async () => {
    const out = vi.spyOn(process.stdout, 'write');
    const err = vi.spyOn(process.stderr, 'write');
    const { reports, onProgress } = collector();
    running.push(await startMock({ users: { a: 'a', b: 'b' }, generate: { files: 2500, folders: 20 }, onProgress }));
    expectOneTask(reports, 'generate', 2 * 2520);
    expect(reports.every((r) => r.unit === 'objects')).toBe(true);
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
  });

  it('a scenario switch to a generated account reports its build, and a reset again', async () => {
    const { reports, onProgress } = collector();
    const mock = await startMock({ onProgress });
    running.push(mock);
    expect(reports).toEqual([]);
    await mock.useScenario({ name: 'big', seed: { generate: { files: 3000 } } });
    expectOneTask(reports, 'generate', 3000);
    reports.length = 0;
    await mock.reset();
    expectOneTask(reports, 'generate', 3000);
  });

  it('a --data restart reads its state file with reports in bytes up to the file size', async () => {
    const data = join(tmp.path, 'state.json');
    const first = await startMock({ data, generate: { files: 12_000 } });
    await first.close();
    const { size } = await stat(data);
    expect(size).toBeGreaterThan(2 * 2 ** 20);
    const { reports, onProgress } = collector();
    running.push(await startMock({ data, onProgress }));
    expectOneTask(reports, 'load', size);
    expect(reports.every((r) => r.unit === 'bytes')).toBe(true);
  });

  it('a small state, or a small account, reports only its end', async () => {
    const data = join(tmp.path, 'small.json');
    await (await startMock({ data })).close();
    const { reports, onProgress } = collector();
    running.push(await startMock({ data, onProgress }));
    running.push(await startMock({ generate: { files: 10 }, onProgress }));
    expect(reports.map((r) => [r.task, r.finished])).toEqual([
      ['load', true],
      ['generate', true],
    ]);
  });

  it('verify reports every 100 exchanges and its end; import-har every 500 entries and its end', async () => {
    const entry = (i: number): HarEntry => ({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
      time: 1,
      request: {
        method: 'GET',
        url: 'https://cloud.example.test/v2',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Content-Type', value: 'text/plain' }],
        content: { size: 2, mimeType: 'text/plain', text: 'ok' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const out = join(tmp.path, 'imported.jsonl');
    const imported = collector();
    const entries = Array.from({ length: 1200 }, (_, i) => entry(i));
    await importHar({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }, 'capture.har', {
      baseUrl: 'https://cloud.example.test',
      out,
      onProgress: imported.onProgress,
    });
    expect(imported.reports.map((r) => r.done)).toEqual([500, 1000, 1200]);
    expectOneTask(imported.reports, 'import-har', 1200);

    const verified = collector();
    const recording = await readRecording(out);
    await verifyRecording({ ...recording, exchanges: recording.exchanges.slice(0, 250) }, verified);
    expect(verified.reports.map((r) => r.done)).toEqual([100, 200, 250]);
    expectOneTask(verified.reports, 'verify', 250);
  });
});
