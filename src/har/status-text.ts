import { STATUS_CODES } from 'node:http';

/** The reason phrase HAR's statusText wants: Node's table, '' for a status it does not know. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}
