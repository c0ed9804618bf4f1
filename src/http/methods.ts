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
