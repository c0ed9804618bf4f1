import type { ChangeSet } from '../storage/persistence.js';
import type { NodeRecord, UserRecord } from '../storage/schema.js';

/** What undoes an applied change set: apply it (then drop `droppedUsers`) to get the state before. */
export interface Undo extends ChangeSet {
  nodes: NodeRecord[];
  removed: string[];
  users: Array<{ login: string; user: UserRecord }>;
  /** Logins the change added. */
  droppedUsers: string[];
}

/** The questions routes and views may ask about the tree; nothing here changes it. */
export interface TreeQueries {
  /** A counter that grows with every applied change (and every whole load). */
  readonly generation: number;
  /** Nodes held, every user's root and the recycled ones included. */
  readonly size: number;
  node(id: string): NodeRecord | undefined;
  /** Every login, in the order the users came. */
  users(): string[];
  /** Every blob id a node points at (what the blob sweep at start keeps). */
  referencedBlobs(): Set<string>;
  isLive(node: NodeRecord): boolean;
  children(containerId: string): NodeRecord[];
  /** Every child id (live or recycled) of a container, unordered. */
  childIds(containerId: string): Iterable<string>;
  childNamed(containerId: string, name: string): NodeRecord | undefined;
  subtree(id: string, max?: number): NodeRecord[];
  subtreeBytes(id: string): number;
  isWithin(candidate: string, ancestorId: string): boolean;
  pathNames(id: string): string[];
}
