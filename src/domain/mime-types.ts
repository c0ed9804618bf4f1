import { lookup } from 'mime-types';

const GENERIC = 'application/octet-stream';

/**
 * The declared type unless it is missing or generic; then the type mime-db (the database express
 * itself uses) gives the extension, so .heic, .mov and .pptx get their real types.
 */
export function guessMimeType(name: string, declared?: string): string {
  const given = declared?.trim().toLowerCase();
  if (given && given !== GENERIC) return given;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return GENERIC;
  return lookup(name.slice(dot)) || GENERIC;
}
