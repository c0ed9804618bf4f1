import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILPOINTS_ENV } from '../../../src/storage/failpoints.js';
import { killServersAfterEach, serve, type ServeProcess } from '../../helpers/cli.js';
import { bigFolderScenario, readArriving, wellFormed } from '../../helpers/big-folders.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/**
 * A failure after a listing's first bytes are out can no longer become a status: the connection is
 * cut, so a client sees a truncated answer, never a complete-looking one that lacks members. The
 * failpoint 'listing-page-read' (armed with `throw`) fails the listing as it reads a page of members;
 * it fires once, so the next listing is whole.
 */

const FILES = 20_000;
const tmp = useTempDir('listing-failures');
killServersAfterEach();

/** `serve` with /big of FILES files and the listing failpoint armed to throw at its `hit`-th page. */
async function serveFailing(hit: number): Promise<ServeProcess> {
  const scenario = join(tmp.path, 'big-folder.json');
  await writeFile(scenario, JSON.stringify(bigFolderScenario(FILES)));
  return serve(['--scenario', scenario], {
    env: { ...process.env, [FAILPOINTS_ENV]: `listing-page-read:throw@${hit}` },
  });
}

/** The id of /big, read from its container entity at its namespace address. */
async function idOfBig(server: ServeProcess): Promise<string> {
  const answer = await readArriving(`${server.url}/v2/namespace/big`);
  return /\/v2\/containers\/([^"/]+)\/contents"/.exec(answer.text)![1]!;
}

describe('a listing that fails after its first bytes cuts the connection', () => {
  it('a /v2 contents listing failing at its third page of members arrives cut (no closing tag, not well-formed); the server lives on and the next listing is whole', async () => {
    const server = await serveFailing(3);
    const id = await idOfBig(server);
    const url = `${server.url}/v2/containers/${id}/contents`;
    const cut = await readArriving(url);
    expect(cut.status).toBe(200);
    expect(cut.complete).toBe(false);
    expect(cut.text.length).toBeGreaterThan(0);
    expect(cut.text).not.toContain('</file-list>');
    expect(wellFormed(cut.text)).toBe(false);
    const whole = await readArriving(url);
    expect(whole.complete && wellFormed(whole.text)).toBe(true);
    expect(whole.text).toContain(`total="${FILES}"`);
    expect([...server.stdout, ...server.stderr].join('\n')).toContain('failpoint listing-page-read');
  });

  it('a PROPFIND Depth 1 failing at its second page of members arrives cut after its 207 began; the server lives on', async () => {
    const server = await serveFailing(2);
    const propfind = () => readArriving(`${server.url}/dav/big/`, { method: 'PROPFIND', headers: { Depth: '1' } });
    const cut = await propfind();
    expect(cut.status).toBe(207);
    expect(cut.complete).toBe(false);
    expect(cut.text).toContain('<D:multistatus');
    expect(cut.text).not.toContain('</D:multistatus>');
    expect(wellFormed(cut.text)).toBe(false);
    const whole = await propfind();
    expect(whole.complete && wellFormed(whole.text)).toBe(true);
    expect(whole.text.split('<D:response>')).toHaveLength(FILES + 2);
  });
});
