import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockApp, type ScenarioDefinition } from '../../../src/index.js';
import { BASIC_DEMO } from '../../helpers/cli.js';
import { useTempDir } from '../../helpers/temp-dir.js';

let app: MockApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  delete process.env['CSP_MOCK_MAX_FILE_BYTES'];
});
const tmp = useTempDir('file-access');

const loot = (fixture: string): ScenarioDefinition => ({ name: 'loot', seed: { tree: [{ file: 'loot', fixture }] } });
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'no error',
    (e: Error) => e.message,
  );

async function scenarioFile(name: string, body: object): Promise<string> {
  const file = join(tmp.path, 'scenarios', name);
  await mkdir(join(tmp.path, 'scenarios'), { recursive: true });
  await writeFile(file, JSON.stringify(body));
  return file;
}

describe('scenario files name only files they may (issue 10, findings 1 and 8)', () => {
  it('an inline scenario over HTTP cannot serve /etc/shadow or /proc/self/environ through /dav (fixture outside ./scenarios)', async () => {
    app = await createApp();
    for (const fixture of ['/etc/shadow', '/proc/self/environ', '../package.json', 'fixtures/../../package.json']) {
      const res = await request(app.app).put('/__admin/scenario').send(loot(fixture)).expect(400);
      expect(res.text).toContain('seed.tree[0].fixture');
      expect(res.text).toContain('is outside');
      expect(res.text).not.toMatch(/root:|PATH=|"name": "csp-mock"/);
    }
    await request(app.app).get('/dav/loot').set('Authorization', BASIC_DEMO).expect(404);
    // A fixture inside the project's ./scenarios folder is fine (here: the package's own).
    await request(app.app).put('/__admin/scenario').send(loot('fixtures/logo.png')).expect(200);
    const logo = await request(app.app).get('/dav/loot').set('Authorization', BASIC_DEMO).expect(200);
    expect(logo.body.subarray(1, 4).toString()).toBe('PNG');
  });

  it("a scenario file's fixture and extends stay inside its folder, symlinks included", async () => {
    await writeFile(join(tmp.path, 'outside.bin'), 'secret outside');
    await writeFile(join(tmp.path, 'outside.json'), '{"faults": []}');
    await mkdir(join(tmp.path, 'scenarios'), { recursive: true });
    await symlink(join(tmp.path, 'outside.bin'), join(tmp.path, 'scenarios', 'link.bin'));
    await symlink('/etc', join(tmp.path, 'scenarios', 'etc'));
    const up = await scenarioFile('up.json', loot('../outside.bin'));
    const linked = await scenarioFile('linked.json', loot('link.bin'));
    const throughDir = await scenarioFile('through-dir.json', loot('etc/passwd'));
    const absolute = await scenarioFile('absolute.json', loot('/etc/passwd'));
    const parent = await scenarioFile('parent.json', { extends: '../outside.json' });
    const parentAbsolute = await scenarioFile('parent-absolute.json', { extends: '/etc/passwd' });
    for (const file of [up, linked, throughDir, absolute]) {
      const message = await failure(createApp({ scenario: file }));
      expect(message).toContain(`${file}: seed.tree[0].fixture: cannot read`);
      expect(message).toContain('is outside');
      expect(message).not.toMatch(/secret outside|root:/);
    }
    for (const file of [parent, parentAbsolute]) {
      const message = await failure(createApp({ scenario: file }));
      expect(message).toContain(`${file}: extends:`);
      expect(message).toContain('is outside');
      expect(message).not.toContain('root:');
    }
    // Inside the folder: fine.
    await writeFile(join(tmp.path, 'scenarios', 'inside.bin'), 'inside');
    app = await createApp({ scenario: await scenarioFile('ok.json', loot('inside.bin')) });
    const inside = await request(app.app).get('/dav/loot').set('Authorization', BASIC_DEMO).expect(200);
    expect(Buffer.from(inside.body as Buffer).toString()).toBe('inside');
  });

  it('refuses devices, FIFOs and directories as fixtures with a clear message (a fixture /dev/zero)', async () => {
    // The user's own code may name any path, but never one that cannot be read whole.
    expect(await failure(createApp({ scenario: loot('/dev/zero') }))).toContain(
      '/dev/zero: is a character device, not a regular file',
    );
    execFileSync('mkfifo', [join(tmp.path, 'pipe')]);
    expect(await failure(createApp({ scenario: loot(join(tmp.path, 'pipe')) }))).toContain(
      'pipe: is a FIFO, not a regular file',
    );
    expect(await failure(createApp({ scenario: loot(tmp.path) }))).toContain(
      `${tmp.path}: is a directory, not a regular file`,
    );
    // In a scenario file too: a FIFO inside its own folder.
    const file = await scenarioFile('fifo.json', loot('pipe'));
    execFileSync('mkfifo', [join(tmp.path, 'scenarios', 'pipe')]);
    expect(await failure(createApp({ scenario: file }))).toContain('is a FIFO, not a regular file');
  });

  it("checks a fixture's size before reading it (CSP_MOCK_MAX_FILE_BYTES)", async () => {
    await writeFile(join(tmp.path, 'big.bin'), Buffer.alloc(4096));
    process.env['CSP_MOCK_MAX_FILE_BYTES'] = '1000';
    expect(await failure(createApp({ scenario: loot(join(tmp.path, 'big.bin')) }))).toContain(
      'big.bin: is 4096 bytes, over the limit of 1000',
    );
  });

  it('over HTTP a scenario is a name in ./scenarios or the built-ins, never a path', async () => {
    app = await createApp();
    const file = await scenarioFile('mine.json', { faults: [] });
    for (const name of [file, '../etc/passwd', 'x/../../y', 'mine.json']) {
      const res = await request(app.app).put('/__admin/scenario').send({ name }).expect(400);
      expect(res.text).toContain('over HTTP a scenario is named');
    }
    await request(app.app).put('/__admin/scenario').send({ name: 'tag-objects-500' }).expect(200);
  });
});
