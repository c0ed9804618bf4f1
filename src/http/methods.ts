/** The methods the mock serves on /v2, /dav, /cdmi and the admin API; any other method is a 405 wherever it is sent. */
export const SERVICE_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
] as const;

/** Methods that never change state: their entries carry no `committed`. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND', 'REPORT', 'SEARCH', 'TRACE']);

/** True for a method whose request may change state (its journal entry says whether it did). */
export function mayChangeState(method: string): boolean {
  // Node hands methods over in capitals: the common case needs no copy.
  return !READ_METHODS.has(method) && !READ_METHODS.has(method.toUpperCase());
}
