import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/index.js';
import { CloudClient, binaryParser, useCloud } from '../../helpers/cloud.js';

/** The newest C# sync client overwrites a file as its MezeoFileCloud.cs does: POST <file>/content, part Filedata. */
function overwrite(client: CloudClient, file: string, content: string) {
  return client
    .post(`${file}/content`)
    .attach('Filedata', Buffer.from(content), { filename: 'notes.txt', contentType: 'application/octet-stream' });
}

async function contentOf(client: CloudClient, file: string): Promise<string> {
  const res = await client.get(`${file}/content`).buffer(true).parse(binaryParser).expect(200);
  return (res.body as Buffer).toString('utf8');
}

describe('a multipart POST to a file content address (the newest sync client overwrites files so)', () => {
  const cloud = useCloud();

  it('answers the interface document by default: 405 with Allow: GET, PUT, HEAD, and the content stays', async () => {
    const root = await cloud.client.rootPath();
    const file = await cloud.client.uploadFile(root, 'notes.txt', 'one');
    const res = await overwrite(cloud.client, file, 'two').expect(405);
    expect(res.headers['allow']).toBe('GET, PUT, HEAD');
    expect(await contentOf(cloud.client, file)).toBe('one');
  });

  it('a scenario with deviations ["multipart-content-overwrite"] replaces the content (204); other bodies stay 405', async () => {
    const client = new CloudClient(
      await createApp({ seed: 'empty', scenario: { deviations: ['multipart-content-overwrite'] } }),
    );
    try {
      const root = await client.rootPath();
      const file = await client.uploadFile(root, 'notes.txt', 'one');
      await overwrite(client, file, 'two, longer').expect(204);
      expect(await contentOf(client, file)).toBe('two, longer');
      await client.post(`${file}/content`).set('Content-Type', 'application/octet-stream').send('x').expect(405);
      await client.post('/v2/files/no-such-file/content').attach('Filedata', Buffer.from('x'), 'x.txt').expect(404);
      expect(await client.childNames(root)).toEqual(['notes.txt']);
    } finally {
      await client.mock.close();
    }
  });

  it('a scenario that turns on an unknown deviation is refused, naming the field', async () => {
    await expect(
      createApp({ seed: 'empty', scenario: { deviations: ['multipart-anything' as never] } }),
    ).rejects.toThrow(/deviations/);
  });
});
