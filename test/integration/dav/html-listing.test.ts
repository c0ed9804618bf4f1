import { describe, expect, it } from 'vitest';
import { useCloud } from '../../helpers/cloud.js';
import { dav } from './dav-helpers.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GET of a WebDAV collection from a browser', () => {
  const cloud = useCloud({ seed: 'demo' });
  const app = () => cloud.client.app;

  it('is an HTML page: each member a link, its size and modified time, and a parent link', async () => {
    const res = await dav(app(), 'GET', '/dav/Documents/')
      .set('Accept', BROWSER_ACCEPT)
      .expect(200)
      .expect('Content-Type', /^text\/html/);
    expect(res.headers['vary']).toMatch(/Accept/);
    expect(res.text).toContain('<a href="/dav/Documents/Reports/">Reports/</a>');
    expect(res.text).toContain('<a href="/dav/Documents/readme.txt">readme.txt</a>');
    expect(res.text).toContain('<a href="/dav/Documents/notes.md">notes.md</a>');
    expect(res.text).toMatch(/readme\.txt<\/a><\/td><td>58 bytes<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/td>/);
    expect(res.text).toContain('<a href="/dav/" rel="up">Parent collection</a>');
  });

  it('escapes names and percent-encodes their links; the page may not run scripts', async () => {
    await dav(app(), 'PUT', '/dav/%3Cb%3E%20%26%20%23.txt').send('x').expect(201);
    const res = await dav(app(), 'GET', '/dav/').set('Accept', 'text/html').expect(200);
    expect(res.text).toContain('<a href="/dav/%3Cb%3E%20%26%20%23.txt">&lt;b&gt; &amp; #.txt</a>');
    expect(res.text).not.toContain('rel="up"');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('stays the plain listing for WebDAV clients, curl (*/*) and requests without Accept', async () => {
    for (const accept of ['*/*', 'text/plain', undefined]) {
      const req = dav(app(), 'GET', '/dav/Documents/');
      if (accept) req.set('Accept', accept);
      const res = await req.expect(200).expect('Content-Type', /^text\/plain/);
      expect(res.text).toBe('Reports/\nnotes.md\nreadme.txt\n');
    }
  });
});
