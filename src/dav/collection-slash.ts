import type { Request, Response } from 'express';
import type { Answer } from '../http/answer.js';
import type { CloudStore } from '../domain/cloud-store.js';
import { targetOf } from './target.js';

/**
 * A collection addressed without its trailing slash (RFC 4918 5.2): GET and HEAD are redirected
 * (301) to the slash form; any other method is served as if addressed there, with Content-Location
 * naming the slash form (except DELETE and MOVE) (lftp resolves member names against it). Returns the redirect, if any.
 */
export function slashlessCollectionAnswer(store: CloudStore, req: Request, res: Response): Answer | undefined {
  if (req.path.endsWith('/')) return undefined;
  let isCollection: boolean;
  try {
    const target = targetOf(store, req, res);
    isCollection = target.node?.kind === 'container' && target.names.length > 0;
  } catch {
    return undefined; // a bad path: the method's handler answers it
  }
  if (!isCollection) return undefined;
  const query = req.originalUrl.indexOf('?');
  const slashForm = `${req.baseUrl}${req.path}/${query >= 0 ? req.originalUrl.slice(query) : ''}`;
  if (req.method === 'GET' || req.method === 'HEAD')
    return { status: 301, headers: { Location: slashForm, 'Content-Length': '0' } };
  // After DELETE or MOVE nothing is there any more to name.
  if (req.method !== 'DELETE' && req.method !== 'MOVE') res.setHeader('Content-Location', `${req.baseUrl}${req.path}/`);
  return undefined;
}
