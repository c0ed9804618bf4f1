import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { asArray, readXml } from '../helpers/cloud.js';
import { rcloneRemote } from './rclone-remote.js';

const tree = JSON.parse(await readFile(new URL('../fixtures/dav/rclone-tree.json', import.meta.url), 'utf8')) as {
  files: Array<{ path: string; size: number }>;
};

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const AUTH_HEADER = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

/** Every file under a container, walked through /v2 only: relative path -> sha256 of the REST content. */
async function restTree(base: string, containerHref: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const res = await fetch(`${containerHref}/contents`, { headers: { ...AUTH_HEADER, 'X-Cloud-Depth': '1' } });
  const list = readXml(await res.text())['file-list'];
  for (const c of asArray(list.container)) {
    Object.assign(out, await restTree(base, c['@_xlink:href'], `${prefix}${c.container.name}/`));
  }
  for (const f of asArray(list.file)) {
    const content = await fetch(`${f['@_xlink:href']}/content`, { headers: AUTH_HEADER });
    out[`${prefix}${f.file.name}`] = sha(Buffer.from(await content.arrayBuffer()));
  }
  return out;
}

/** The REST address of the container at a /dav path, through /v2 links only. */
async function restContainer(base: string, names: string[]): Promise<string | undefined> {
  const entry = readXml(await (await fetch(`${base}/v2`, { headers: AUTH_HEADER })).text());
  let href: string = entry.cloud.rootContainer['@_xlink:href'];
  for (const name of names) {
    const res = await fetch(`${href}/contents`, { headers: { ...AUTH_HEADER, 'X-Cloud-Depth': '1' } });
    const list = readXml(await res.text())['file-list'];
    const next = asArray(list.container).find((c) => c.container.name === name);
    if (!next) return undefined;
    href = next['@_xlink:href'];
  }
  return href;
}

describe('rclone (webdav backend) against /dav, checked through /v2', () => {
  let mock: RunningMock;
  let work: string;
  beforeEach(async () => {
    mock = await startMock({ seed: 'empty' });
    work = await mkdtemp(join(tmpdir(), 'csp-mock-rclone-'));
  });
  afterEach(async () => {
    await mock.close();
    await rm(work, { recursive: true, force: true });
  });

  it(
    'copies, checks, syncs edits and deletes, renames a directory, purges; REST sees exactly what rclone wrote',
    { timeout: 300_000 },
    async () => {
      const local = join(work, 'local');
      const expected: Record<string, string> = {};
      for (const f of tree.files) {
        const bytes = randomBytes(f.size);
        await mkdir(dirname(join(local, f.path)), { recursive: true });
        await writeFile(join(local, f.path), bytes);
        expected[f.path] = sha(bytes);
      }
      const remote = await rcloneRemote(mock.url, work);
      const rc = async (...args: string[]) => {
        const run = await remote.run(...args);
        expect(run.code, `rclone ${args.join(' ')}\n${run.output}`).toBe(0);
        return run.output;
      };
      const restView = async () => {
        const top = await restContainer(mock.url, ['tree']);
        return top ? restTree(mock.url, top) : undefined;
      };

      await rc('copy', local, 'csp:tree');
      await rc('check', '--download', local, 'csp:tree');
      expect(await restView()).toEqual(expected);

      // Local edits (sizes change, since this backend has no settable modification times) and deletes.
      const edited = randomBytes(2000);
      await writeFile(join(local, 'one byte'), edited);
      expected['one byte'] = sha(edited);
      await rm(join(local, 'hash#tag;semi.txt'));
      delete expected['hash#tag;semi.txt'];
      await rm(join(local, 'second dir'), { recursive: true });
      delete expected['second dir/medium.bin'];
      const added = randomBytes(333);
      await writeFile(join(local, 'dir one', 'new file.txt'), added);
      expected['dir one/new file.txt'] = sha(added);
      await rc('sync', local, 'csp:tree');
      await rc('check', '--download', local, 'csp:tree');
      expect(await restView()).toEqual(expected);
      expect(await restContainer(mock.url, ['tree', 'second dir'])).toBeUndefined();

      // A directory rename through WebDAV MOVE.
      await rc('moveto', 'csp:tree/dir one', 'csp:tree/renamed dir');
      await rename(join(local, 'dir one'), join(local, 'renamed dir'));
      for (const key of Object.keys(expected).filter((k) => k.startsWith('dir one/'))) {
        expected[key.replace(/^dir one\//, 'renamed dir/')] = expected[key]!;
        delete expected[key];
      }
      await rc('check', '--download', local, 'csp:tree');
      expect(await restView()).toEqual(expected);

      await rc('purge', 'csp:tree');
      expect(await restContainer(mock.url, ['tree'])).toBeUndefined();
    },
  );
});
