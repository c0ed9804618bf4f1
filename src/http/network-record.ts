import type { NetworkRecord } from './wire-types.js';

export type { NetworkRecord };
/** The log line's part: "network=bandwidth,hang in=1024B out=0B". */
export function describeNetwork(record: NetworkRecord | undefined): string {
  if (!record) return '';
  return `network=${record.conditions.join(',')} in=${record.bytesIn}B out=${record.bytesOut}B`;
}
