/** A request and its answer as whole values (what verify, replay and interceptCloud hand around). */

/** Header name (lower case) to value; a repeated header keeps its values in order. */
export type HeaderMap = Record<string, string | string[]>;

export interface PlainRequest {
  method: string;
  /** Path and query, e.g. /v2/files/abc?n=1 */
  url: string;
  headers: HeaderMap;
  body: Buffer;
}

export interface PlainResponse {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}
