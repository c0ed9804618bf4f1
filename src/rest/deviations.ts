/**
 * Answers a real client expects where the interface document says otherwise. The document's answer is the
 * default; a scenario's `deviations` list turns one on, for a test of that client.
 */
export const DEVIATIONS = {
  /** `POST /v2/files/<id>/content` as multipart/form-data (one file part) replaces the content: 204, not 405. */
  'multipart-content-overwrite': 'a multipart POST to a file content address replaces the content (204)',
} as const;

export type Deviation = keyof typeof DEVIATIONS;

/** What the REST routes need of the mock's options and its active scenario. */
export interface RestRules {
  /** --strict: only what the interface document names (the upload part "file"). */
  strict: boolean;
  /** True when the active scenario turns `deviation` on. */
  deviates: (deviation: Deviation) => boolean;
}
