/** The shapes the admin API sends (the wire contract of src/admin and src/http/journal.ts). */

export interface ReplayNote {
  outcome: 'served' | 'missed' | 'emulated' | 'proxied';
  exchange?: number;
  nearMiss?: string;
}

export interface JournalEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  user: string | null;
  status: number | null;
  outcome: string;
  durationMs: number | null;
  fault: string | null;
  scenario: string | null;
  replay?: ReplayNote | null;
  /** Journals that keep bodies add more fields; the details show them as they come. */
  [more: string]: unknown;
}

export interface InspectedLock {
  scope: string;
  depth: string;
  direct: boolean;
  owner: string;
  expires: string | null;
}

export interface InspectedNode {
  id: string;
  kind: 'container' | 'file';
  name: string;
  bytes: number;
  version: number;
  created: string;
  modified: string;
  mimeType: string;
  public: boolean;
  tags: string[];
  metadata: Record<string, string>;
  locks: InspectedLock[];
  rest: string;
  dav: string | null;
  members?: number;
  recycled?: string;
}

export interface Listing {
  nodes: InspectedNode[];
  more: number;
}

export interface InspectedUser {
  user: string;
  rootId: string;
  members: number;
  recycled: number;
}

export interface FaultRuleView {
  label: string;
  rule: { match: { method: string | string[]; path: string }; [field: string]: unknown };
  matched: number;
  applied: number;
}

export interface ExchangeView {
  id: number;
  client: string | null;
  method: string;
  path: string;
  status: number;
  served: number;
}

export interface ScenarioView {
  name: string;
  description: string;
  source: string;
  latency: { minMs: number; maxMs?: number } | null;
  seeded: boolean;
  faults: FaultRuleView[];
  recording: { name: string; exchanges: ExchangeView[]; more: number } | null;
}

export interface ScenarioListing {
  name: string;
  description: string;
  builtIn: boolean;
}
