import type { RequestHandler } from 'express';

/** The shapes of a scenario file; scenarios/scenario.schema.json describes the same fields for editors. */

/** A string must equal the value; true means present, false means absent. */
export type Condition = string | boolean;

export interface FaultMatch {
  method: string | string[];
  path: string;
  headers?: Record<string, Condition>;
  contentType?: string;
  query?: Record<string, Condition>;
}

export interface FaultResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

export interface FaultRule {
  name?: string;
  match: FaultMatch;
  times?: number;
  after?: number;
  probability?: number;
  seed?: number;
  respond?: FaultResponse;
  connection?: 'close' | 'reset';
  truncateAfterBytes?: number;
  delayMs?: number;
}

export interface SeedNode {
  container?: string;
  file?: string;
  children?: SeedNode[];
  text?: string;
  base64?: string;
  fixture?: string;
  mimeType?: string;
  public?: boolean;
  tags?: string[];
  metadata?: Record<string, string>;
}

export type SeedTree = 'demo' | SeedNode[];

export interface ScenarioSeed {
  users?: Record<string, string>;
  tree?: SeedTree;
  trees?: Record<string, SeedTree>;
}

export interface Latency {
  minMs: number;
  maxMs?: number;
  seed?: number;
}

/** A scenario as written in a file or passed inline. */
export interface ScenarioDefinition {
  $schema?: string;
  name?: string;
  description?: string;
  extends?: string;
  latency?: Latency;
  recording?: string;
  seed?: ScenarioSeed;
  faults?: FaultRule[];
}

/** A seed node with its content read (fixtures and base64 decoded at load time). */
export type ResolvedSeedNode =
  | { kind: 'container'; name: string; children: ResolvedSeedNode[]; tags: string[]; metadata: Record<string, string> }
  | {
      kind: 'file';
      name: string;
      content: Buffer;
      mimeType: string | undefined;
      public: boolean;
      tags: string[];
      metadata: Record<string, string>;
    };

export type ResolvedSeedTree = 'demo' | ResolvedSeedNode[];

export interface ResolvedSeed {
  users: Record<string, string>;
  tree: ResolvedSeedTree | undefined;
  trees: Record<string, ResolvedSeedTree>;
}

/** A scenario with `extends` merged and every file read: what the mock runs. */
export interface ResolvedScenario {
  name: string;
  description: string;
  /** The file it came from, or "inline". */
  source: string;
  faults: FaultRule[];
  latency: Latency | undefined;
  /** A recording in recordings/ to replay for requests no fault answers. */
  recording: string | undefined;
  seed: ResolvedSeed | undefined;
}

/** Builds the handler that replays a named recording (wired by the record-replay module). */
export type ReplayHandlerFactory = (recording: string, scenario: ResolvedScenario) => RequestHandler;
