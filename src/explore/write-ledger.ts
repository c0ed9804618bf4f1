import type { ExpectedFile } from '../converge/oracle.js';
import type { Tree } from '../converge/trees.js';

/** A rename, and the passes it overlaps: from the finished passes before it to those before a pass can carry it. */
interface Rename {
  name: string;
  from: number;
  to: number;
}

interface Written {
  sha256: string;
  writtenBy: string;
  /** Every name a step gave it (a later rename may start from any of them: the client carries names across). */
  names: Set<string>;
  /** Its latest name, and the latest rename or move on each side, with the passes finished before it. */
  current: string;
  local?: Rename;
  remote?: Rename;
}

/**
 * What a run wrote and did not delete: the history the oracle's loss and duplicate checks read. Contents are
 * what count (a client may keep a file under another name, a conflict copy); a step that overwrites or
 * deletes a file retires the content that was there on that side, and only that. A file renamed or moved on
 * both sides, to different names, with no finished pass between, may end under both.
 */
export class WriteLedger {
  #files: Written[] = [];
  /** How many passes the client finished so far. */
  #epoch = 0;

  constructor(seed: Tree) {
    for (const entry of seed.values()) if (entry.kind === 'file') this.wrote(entry.path, entry.sha256!, 'the seed');
  }

  wrote(path: string, sha256: string, writtenBy: string): void {
    this.#files.push({ sha256, writtenBy, names: new Set([path]), current: path });
  }

  /** The contents of `path` and everything under it in `tree` are no longer expected (overwritten or deleted). */
  retired(tree: Tree, path: string): void {
    const gone = new Set<string>();
    for (const entry of tree.values())
      if (entry.sha256 && (entry.path === path || entry.path.startsWith(`${path}/`))) gone.add(entry.sha256);
    this.#files = this.#files.filter((f) => !gone.has(f.sha256));
  }

  /**
   * A rename or move on one side: the files at `from` (and under it) are now named from `to` there. `during`:
   * it happened while a pass ran (a triggered change), so that pass may not have carried it either.
   */
  moved(from: string, to: string, side: 'local' | 'remote', during = false): void {
    for (const file of this.#files) {
      const name = [...file.names].find((n) => n === from || n.startsWith(`${from}/`));
      if (name === undefined) continue;
      const renamed = to + name.slice(from.length);
      file.names.add(renamed);
      file.current = renamed;
      file[side] = { name: renamed, from: this.#epoch, to: this.#epoch + (during ? 1 : 0) };
    }
  }

  /** The client finished a pass: renames made before it are its to carry across, not concurrent with later ones. */
  settled(): void {
    this.#epoch++;
  }

  get expected(): ExpectedFile[] {
    return this.#files.flatMap(({ sha256, writtenBy, current, local, remote }) =>
      local && remote && local.from <= remote.to && remote.from <= local.to && local.name !== remote.name
        ? [
            { path: local.name, sha256, writtenBy },
            { path: remote.name, sha256, writtenBy },
          ]
        : [{ path: current, sha256, writtenBy }],
    );
  }
}
