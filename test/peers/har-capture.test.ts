import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecording, startMock } from '../../src/index.js';
import type { Har } from '../../src/har/har-types.js';
import { CLI, ServeProcess, killServersAfterEach } from '../helpers/cli.js';
import { runCommand } from '../helpers/run-command.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { findInFiles } from '../integration/record-replay/support.js';
import { launchChromium } from '../helpers/chromium.js';

const PASSWORD = 'pw-chromium-har-never-recorded';
const AUTHORIZATION = `Basic ${Buffer.from(`demo:${PASSWORD}`).toString('base64')}`;

/** What the page saw of each request: status, content type and body (binary as base64). */
interface Seen {
  request: string;
  status: number;
  type: string | null;
  body: string;
}

/** The bytes of a file with control characters: stored as base64 in a recording, but sent as text/plain. */
const CONTROL_BYTES = Array.from({ length: 256 }, (_, i) => (i * 7) % 128);

/**
 * A browser client's session, run in the page: the entry document, a folder and files over WebDAV, the
 * root container's listing over REST, and a request to another site. HAR 1.2 keeps request bodies as
 * text: Chromium leaves an application/octet-stream upload out of the capture, so `blob.bin` reaches
 * the recording without its body (replay takes any body for it); the file with control characters
 * goes as text/plain, which the capture keeps whole.
 */
async function browserSession(
  page: import('playwright-core').Page,
  args: { authorization: string; elsewhere: string; controlBytes: number[] },
): Promise<Seen[]> {
  return page.evaluate(async ({ authorization, elsewhere, controlBytes }) => {
    const seen: Array<{ request: string; status: number; type: string | null; body: string }> = [];
    const headers = { Authorization: authorization, 'X-Client-Specification': '2' };
    const send = async (method: string, path: string, body?: BodyInit, type?: string): Promise<string> => {
      const res = await fetch(path, { method, body, headers: { ...headers, ...(type && { 'Content-Type': type }) } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const contentType = res.headers.get('content-type');
      const text = /image|octet/.test(contentType ?? '')
        ? btoa(String.fromCharCode(...bytes))
        : new TextDecoder().decode(bytes);
      seen.push({ request: `${method} ${path}`, status: res.status, type: contentType, body: text });
      return text;
    };
    const entry = await send('GET', '/v2');
    const root = new DOMParser()
      .parseFromString(entry, 'application/xml')
      .getElementsByTagName('rootContainer')[0]!
      .getAttribute('xlink:href')!;
    await send('MKCOL', '/dav/docs');
    await send('PUT', '/dav/docs/notes.txt', 'notes written in Chromium', 'text/plain');
    await send('GET', '/dav/docs/notes.txt');
    await send('PUT', '/dav/docs/data.bin', Uint8Array.from(controlBytes), 'text/plain');
    await send('GET', '/dav/docs/data.bin');
    await send('PUT', '/dav/docs/blob.bin', Uint8Array.from([0, 200, 255, 1]), 'application/octet-stream');
    await send('GET', `${new URL(root).pathname}/contents`);
    // Another site: the capture holds it, the import leaves it out.
    await fetch(`${elsewhere}/v2`, { mode: 'no-cors' });
    return seen;
  }, args);
}

describe('a HAR captured by Chromium becomes a recording that replays and verifies', () => {
  killServersAfterEach();
  const tmp = useTempDir('chromium-har');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a page on the mock's origin (a path of its admin API: a page of the service would be sandboxed). */
  async function pageOn(origin: string, harPath?: string) {
    const context = await browser.newContext(harPath ? { recordHar: { path: harPath } } : {});
    const page = await context.newPage();
    await page.goto(`${origin}/__admin/blank-page-for-fetch`);
    return { context, page };
  }

  it('import-har keeps the service exchanges, no credential; replay answers the page as the mock did; verify agrees', async () => {
    const mock = await startMock({ seed: 'empty', users: { demo: PASSWORD } });
    const elsewhere = await startMock({ seed: 'empty' });
    const harFile = join(tmp.path, 'devtools.har');
    let captured: Seen[];
    try {
      const { context, page } = await pageOn(mock.url, harFile);
      captured = await browserSession(page, {
        authorization: AUTHORIZATION,
        elsewhere: elsewhere.url,
        controlBytes: CONTROL_BYTES,
      });
      // The HAR is written when its context closes.
      await context.close();
    } finally {
      await elsewhere.close();
      await mock.close();
    }
    expect(captured.map((s) => `${s.request.split(' ')[0]} ${s.status}`)).toEqual([
      'GET 200',
      'MKCOL 201',
      'PUT 201',
      'GET 200',
      'PUT 201',
      'GET 200',
      'PUT 201',
      'GET 200',
    ]);
    const har = JSON.parse(await readFile(harFile, 'utf8')) as Har;
    expect(har.log.entries.some((e) => e.request.headers.some((h) => h.value === AUTHORIZATION))).toBe(true);

    const out = join(tmp.path, 'recordings', 'from-browser.jsonl');
    const imported = await runCommand(
      process.execPath,
      [CLI, 'import-har', harFile, '--base-url', mock.url, '-o', out],
      { cwd: tmp.path },
    );
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(
      /1 request body\(ies\) the HAR kept only as text \(binary uploads\) match any body on replay/,
    );
    expect(imported.stdout).toMatch(
      /^imported 8 exchange\(s\) .*skipped 1 elsewhere than --base-url, 1 to the mock's \/__admin/,
    );
    expect(await findInFiles(join(tmp.path, 'recordings'), [PASSWORD, AUTHORIZATION.slice('Basic '.length)])).toEqual(
      [],
    );

    const replay = await new ServeProcess(['replay', '--port', '0', '--recording', out], { cwd: tmp.path }).ready();
    const { context, page } = await pageOn(replay.url);
    const replayed = await browserSession(page, {
      authorization: AUTHORIZATION,
      elsewhere: replay.url,
      controlBytes: CONTROL_BYTES,
    });
    await context.close();
    await replay.stop();
    // The same answers, links naming the replay's origin instead of the mock's.
    const onOrigin = (seen: Seen[], origin: string) =>
      seen.map((s) => ({ ...s, body: s.body.split(origin).join('{{origin}}') }));
    expect(onOrigin(replayed, replay.url)).toEqual(onOrigin(captured, mock.url));
    const download = replayed.find((s) => s.request === 'GET /dav/docs/data.bin')!;
    expect([...Buffer.from(download.body, 'utf8')]).toEqual(CONTROL_BYTES);
    const stored = await readRecording(out);
    const downloaded = stored.exchanges.find(
      (e) => e.request.method === 'GET' && e.request.path === '/dav/docs/data.bin',
    )!;
    expect([...downloaded.response.body]).toEqual(CONTROL_BYTES);
    expect(stored.exchanges.find((e) => e.request.path === '/dav/docs/blob.bin')!.request.partialBody).toBe(true);

    // The account was empty when the capture began (the mock started so): verify starts from that.
    const verify = await runCommand(process.execPath, [CLI, 'verify', '--recording', out, '--seed', 'empty'], {
      cwd: tmp.path,
    });
    expect(verify.stdout).toMatch(/verify: 8 exchange\(s\), 8 match, 0 differ/);
    expect(verify.code).toBe(0);
  }, 120_000);
});
