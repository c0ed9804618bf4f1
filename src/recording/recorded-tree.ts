import type { NodeKind } from '../domain/model.js';

/** One object as the recording shows it at its end. */
export interface RecordedObject {
  id: string;
  kind: NodeKind;
  user: string;
  name?: string;
  /** null for the user's root container. */
  parentId?: string | null;
  mimeType?: string;
  public?: boolean;
  content?: Buffer;
  /** The size listings and entities showed (for a file whose content the recording never read). */
  bytes?: number;
  tags: string[];
  /** Key -> value; '' for a key the recording lists but never shows the value of. */
  metadata: Record<string, string>;
  deleted: boolean;
  /** Where an object that moved during the recording was first seen (WebDAV MOVEs). */
  startPlace?: { name?: string; parentId?: string | null };
}

export interface RecordedTree {
  /** login -> root container id */
  roots: Map<string, string>;
  objects: Map<string, RecordedObject>;
}
