/** Which network conditions shaped a request, and how many body bytes went each way under them. */
export interface NetworkRecord {
  /** e.g. ["bandwidth", "hang"], in the order they apply. */
  conditions: string[];
  /** Request body bytes the server read from the client. */
  bytesIn: number;
  /** Answer body bytes the server handed to the socket. */
  bytesOut: number;
}

/** The log line's part: "network=bandwidth,hang in=1024B out=0B". */
export function describeNetwork(record: NetworkRecord | undefined): string {
  if (!record) return '';
  return `network=${record.conditions.join(',')} in=${record.bytesIn}B out=${record.bytesOut}B`;
}
