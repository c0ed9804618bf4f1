import express, { type Express } from 'express';

/**
 * The yardstick: bare express answering the same four shapes of request with canned bodies of the
 * same size and no auth, XML, store or disk. The mock's cost is measured against it.
 */
export function baselineApp(entry: string, listing: string, download: Buffer): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/v2', (_req, res) => {
    res.type('application/vnd.csp.cloud+xml').send(entry);
  });
  app.get('/v2/containers/:id/contents', (_req, res) => {
    res.type('application/vnd.csp.file-list+xml').send(listing);
  });
  app.post('/v2/containers/:id/contents', (req, res) => {
    req.resume();
    req.on('end', () => {
      res.status(201).type('text/plain').send(`http://127.0.0.1/v2/files/${Date.now()}\r\n`);
    });
  });
  app.get('/v2/files/:id/content', (_req, res) => {
    res.type('application/octet-stream').send(download);
  });
  return app;
}
