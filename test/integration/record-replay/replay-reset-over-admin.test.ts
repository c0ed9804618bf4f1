// Reset over the admin API is the in-process reset: against `csp-mock replay` in another process, the
// second run of a replay suite gets the recorded answers again.
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, killServersAfterEach, ServeProcess } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/run-command.js';
import { connectMock } from '../../../src/index.js';
import { readRecording } from '../../../src/recording/recording-io.js';
import { EXAMPLE_RECORDING, basic } from './support.js';

const headers = { Authorization: basic('demo', 'demo'), 'X-Client-Specification': '2' };

describe('reset over the admin API against csp-mock replay', { timeout: 60_000 }, () => {
  killServersAfterEach();
  let notes = '';
  beforeAll(async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    // A file the session read, then deleted: the recording answers 200 once, then 404.
    notes = recording.exchanges.find((e) => e.request.method === 'GET' && /^\/v2\/files\/[^/]+$/.test(e.request.path))!
      .request.path;
  });

  async function suite(url: string): Promise<number[]> {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}${notes}`, { headers })).status);
    return statuses;
  }

  it("reset over the admin API (connectMock, csp-mock reset, the inspector's Reset) rewinds a replay's cursor as mock.reset() does", async () => {
    const server = await new ServeProcess(['replay', '--port', '0', '--recording', EXAMPLE_RECORDING]).ready();
    expect(await suite(server.url)).toEqual([200, 404, 404]);

    const remote = connectMock(server.url);
    await remote.reset();
    expect(await suite(server.url)).toEqual([200, 404, 404]);

    const reset = await runCommand(process.execPath, [CLI, 'reset', '--url', server.url]);
    expect(reset.stdout).toContain(`reset ${server.url}`);
    expect(await suite(server.url)).toEqual([200, 404, 404]);

    // The inspector's Reset button sends the same call, as a same-origin page does.
    const page = await fetch(`${server.url}/__admin/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: '{}',
    });
    expect(page.status).toBe(204);
    expect(await suite(server.url)).toEqual([200, 404, 404]);
  });
});
