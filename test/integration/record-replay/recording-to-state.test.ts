import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, readRecording, recordingToState, seedFromRecording, type MockApp } from '../../../src/index.js';
import { SESSION_FILES } from '../../support/example-client/client-session.js';
import { EXAMPLE_RECORDING } from './support.js';

const byName = <T extends { name?: string }>(objects: Iterable<T>, name: string): T | undefined =>
  [...objects].find((o) => o.name === name);

describe('recording -> state: the emulator tree a recording shows', () => {
  let mock: MockApp | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('reads containers, files, names, parents, types, tags, contents and deletes from the exchanges', async () => {
    const tree = recordingToState(await readRecording(EXAMPLE_RECORDING));
    const rootId = tree.roots.get('demo')!;
    expect(rootId).toBeTruthy();
    const objects = tree.objects.values();
    const all = [...objects];
    const projects = byName(all, 'Projects')!;
    const photos = byName(all, 'Photos')!;
    expect(projects).toMatchObject({ kind: 'container', parentId: rootId, deleted: false });
    expect(photos).toMatchObject({ kind: 'container', parentId: rootId });
    const logo = byName(all, 'logo.bin')!;
    expect(logo).toMatchObject({
      kind: 'file',
      parentId: photos.id,
      mimeType: 'application/octet-stream',
      public: false,
    });
    expect(logo.content!.equals(SESSION_FILES.logo)).toBe(true);
    const archive = byName(all, 'archive.bin')!;
    expect(archive.content!.equals(SESSION_FILES.archive)).toBe(true);
    const notes = byName(all, 'notes.txt')!;
    expect(notes).toMatchObject({ parentId: projects.id, deleted: true, tags: ['important'], mimeType: 'text/plain' });
    expect(notes.content!.equals(SESSION_FILES.notes)).toBe(true);
  });

  it('seeds an emulator with that tree, keeping the recorded ids so recorded links stay valid', async () => {
    const recording = await readRecording(EXAMPLE_RECORDING);
    mock = await createApp({ seed: 'empty' });
    const counts = await seedFromRecording(mock.store, recording);
    expect(counts).toEqual({ containers: 2, files: 2 });
    const get = (path: string) => request(mock!.app).get(path).auth('demo', 'demo').set('X-Client-Specification', '2');

    const rootId = recordingToState(recording).roots.get('demo')!;
    const entry = await get('/v2');
    expect(entry.text).toContain(`/v2/containers/${rootId}"`);
    const listing = await get(`/v2/containers/${rootId}/contents`).set('X-Cloud-Depth', '1');
    expect(listing.text).toContain('<name>Projects</name>');
    expect(listing.text).toContain('<name>Photos</name>');
    const archive = await get('/dav/Projects/archive.bin')
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect((archive.body as Buffer).equals(SESSION_FILES.archive)).toBe(true);
    expect((await get('/dav/Projects/notes.txt')).status).toBe(404);
    const logoId = [...recordingToState(recording).objects.values()].find((o) => o.name === 'logo.bin')!.id;
    const logo = await get(`/v2/files/${logoId}`);
    expect(logo.status).toBe(200);
    expect(logo.text).toContain('<name>logo.bin</name>');
  });
});
