/** What an existing (mapped) resource allows: the 405 answers to MKCOL on it and to PUT on a collection list these. */
export const MAPPED_RESOURCE_METHODS = 'OPTIONS, GET, HEAD, DELETE, PROPFIND, PROPPATCH, COPY, MOVE, LOCK, UNLOCK';
