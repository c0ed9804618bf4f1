import express, { type Express } from 'express';
import { createWriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

/** A body the mock really served, with its media type, replayed by a baseline. */
export interface Canned {
  type: string;
  body: string;
}

/**
 * The yardstick of the small requests: bare express (its defaults, so its weak ETag too), one route
 * per request shape, answering with the bytes the mock serves; no auth, store or XML.
 */
export function baselineExpress(paths: { entity: string; listing: string }, entity: Canned, listing: Canned): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get(paths.entity, (_req, res) => {
    res.type(entity.type).send(entity.body);
  });
  app.get(paths.listing, (_req, res) => {
    res.type(listing.type).send(listing.body);
  });
  return app;
}

/**
 * The yardstick of uploads and large downloads: bare node:http that streams each POST body to a new
 * file in `dir` and answers 201, and serves `big` from memory on GET /big.
 */
export function baselineNode(dir: string, big: Buffer): Server {
  let n = 0;
  return createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/upload') {
      const out = createWriteStream(join(dir, `upload-${n++}`));
      req.pipe(out);
      out.on('finish', () => {
        res.writeHead(201, { 'Content-Type': 'text/plain' });
        res.end(`http://127.0.0.1/v2/files/${n}\r\n`);
      });
      out.on('error', () => {
        res.writeHead(500);
        res.end();
      });
      return;
    }
    if (req.method === 'GET' && req.url === '/big') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': big.length });
      res.end(big);
      return;
    }
    res.writeHead(404);
    res.end();
  });
}
