/** What a journal query may ask, checked without the journal itself (the CLI checks its options with it). */

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

/** '4xx' and the like; anything else is no class. */
export function isStatusClass(text: string): text is StatusClass {
  return /^[1-5]xx$/.test(text);
}

/** The longest wait the admin API holds open: below fetch's own 300 s limit for an answer's headers. */
export const MAX_WAIT_MS = 240_000;
