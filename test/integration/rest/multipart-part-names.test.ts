import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import { CloudClient, useCloud } from '../../helpers/cloud.js';

describe('the name of a multipart upload part', () => {
  const cloud = useCloud();

  it('without --strict any single file part is the upload: file, Filedata, the file name, upload', async () => {
    const root = await cloud.client.rootPath();
    for (const field of ['file', 'Filedata', 'a.txt', 'upload'])
      await cloud.client.uploadFile(root, `${field}-part.txt`, field, field);
    expect(await cloud.client.childNames(root)).toEqual([
      'a.txt-part.txt',
      'file-part.txt',
      'Filedata-part.txt',
      'upload-part.txt',
    ]);
  });

  it('under --strict only the documented part name "file" is taken; a part named upload is 400 naming it, and nothing is created', async () => {
    const strict = new CloudClient(await createApp({ seed: 'empty', strict: true }));
    try {
      const root = await strict.rootPath();
      const refused = await strict
        .post(`${root}/contents`)
        .attach('upload', Buffer.from('x'), 'x.txt')
        .expect(400)
        .expect('Content-Type', 'text/plain; charset=UTF-8');
      expect(refused.text).toContain('"upload"');
      expect(refused.text).toContain('"file"');
      await strict.post(`${root}/contents`).attach('Filedata', Buffer.from('x'), 'x.txt').expect(400);
      expect(await strict.childNames(root)).toEqual([]);
      await strict.uploadFile(root, 'x.txt', 'x');
      expect(await strict.childNames(root)).toEqual(['x.txt']);
    } finally {
      await strict.mock.close();
    }
  });
});
