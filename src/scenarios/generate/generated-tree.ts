import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { extension } from 'mime-types';
import type { StateBuilder } from '../../domain/state-builder.js';
import { newNode } from '../../domain/node-records.js';
import { syntheticFileNode } from '../../domain/synthetic-files.js';
import type { GeneratePlan } from './generate-spec.js';
import { sizeSampler, unitRandom } from './size-distribution.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/**
 * Nodes added between turns of the event loop: a scenario switch or reset builds its account while the
 * mock keeps answering (under the old state), and a turn per this many nodes costs nothing measurable.
 */
const NODES_PER_TURN = 1000;

/**
 * Node ids of a generated account: 16 base64url characters (the shape of every id, 96 bits), made of
 * 8 from a hash of (seed, user), one for the kind, 7 for the number. Unique by construction within a
 * user's tree, apart between users, and the same on every machine, so ETags (id and version) are too.
 */
function idPrefix(seed: number, user: string): string {
  return createHash('sha256').update(`csp-mock generated ids 1\0${seed}\0${user}`).digest('base64url').slice(0, 8);
}

/**
 * Ids, names and content references are joined from their parts rather than concatenated: V8 keeps a
 * long concatenation as a tree of its pieces (a cons string), about 100 bytes more per file in all.
 */
function idOf(prefix: string, kind: 'r' | 'd' | 'f', number: number): string {
  const chars: string[] = [prefix, kind, '', '', '', '', '', '', ''];
  for (let i = 8, n = number; i > 1; i--, n = Math.floor(n / 64)) chars[i] = BASE64URL[n % 64]!;
  return chars.join('');
}

/** The root container's id of a user's generated tree (a plan's `rootOf`), so the root's ETag is stable too. */
export function generatedRootId(plan: GeneratePlan, user: string): string {
  return idOf(idPrefix(plan.seed, user), 'r', 0);
}

/**
 * The fewest children per folder with which `folders` fit in `depth` levels (a full tree numbered
 * breadth first: folder i's parent is floor((i - 1) / branching), 0 being the root).
 */
export function branchingOf(folders: number, depth: number): number {
  if (folders <= depth) return 1;
  for (let b = 2; ; b++) {
    let fit = 0;
    for (let level = 1, width = b; level <= depth && fit < folders; level++, width *= b) fit += width;
    if (fit >= folders) return b;
  }
}

/** A name pattern made into a function of the number (and the extension). */
function namer(pattern: string): (n: number, ext: string) => string {
  const parts = pattern.split(/(\{n\}|\{ext\})/);
  const filled = [...parts];
  return (n, ext) => {
    for (let i = 0; i < parts.length; i++)
      filled[i] = parts[i] === '{n}' ? String(n) : parts[i] === '{ext}' ? ext : parts[i]!;
    return filled.join('');
  };
}

/** Text before the first placeholder: two patterns whose heads are not prefixes of each other never make the same name. */
const headOf = (pattern: string): string => pattern.slice(0, pattern.search(/\{(n|ext)\}/));

/**
 * Adds the generated tree below `user`'s root. Folders are spread breadth first over `depth` levels,
 * files in even runs over the folders (file n, n+1, ... in one folder), each file a synthetic content
 * reference: nothing is written, so a million files cost their records and nothing else. Built in
 * slices of NODES_PER_TURN with a turn of the event loop between them; `counted` is told the nodes
 * added by each slice (and by the last, shorter one).
 */
export async function addGeneratedTree(
  state: StateBuilder,
  user: string,
  plan: GeneratePlan,
  counted?: (nodes: number) => void,
): Promise<void> {
  let uncounted = 0;
  const turn = (): Promise<void> => {
    counted?.(uncounted);
    uncounted = 0;
    return nextTurn();
  };
  const prefix = idPrefix(plan.seed, user);
  const root = state.root(user);
  // Stamped as the builder stamped the root.
  const now = root.created;
  const folderIds: string[] = [root.id];
  const branching = branchingOf(plan.folders, plan.depth);
  const folderName = namer(plan.folderName);
  // Folder names are checked against the file names of the same folder only when their patterns could meet.
  const folderNames = mayCollide(plan) ? new Set<string>() : undefined;
  for (let i = 1; i <= plan.folders; i++) {
    if (i % NODES_PER_TURN === 0) await turn();
    uncounted++;
    const id = idOf(prefix, 'd', i);
    const parentId = folderIds[Math.floor((i - 1) / branching)]!;
    const name = folderName(i, '');
    folderIds.push(id);
    folderNames?.add(`${parentId}/${name}`);
    state.addGenerated(newNode(user, 'container', name, parentId, now, id));
  }
  const fileName = namer(plan.fileName);
  const size = sizeSampler(plan.size, plan.seed);
  const types = plan.mimeTypes;
  const exts = types.map((type) => {
    const ext = extension(type);
    return ext ? `.${ext}` : '';
  });
  const holders = Math.max(1, plan.folders);
  for (let h = 0; h < holders; h++) {
    const parentId = folderIds[plan.folders === 0 ? 0 : h + 1]!;
    const first = Math.floor((h * plan.files) / holders);
    const end = Math.floor(((h + 1) * plan.files) / holders);
    for (let j = first; j < end; j++) {
      if (j % NODES_PER_TURN === NODES_PER_TURN - 1) await turn();
      uncounted++;
      const type = types.length === 1 ? 0 : Math.floor(unitRandom(plan.seed, j, 3) * types.length);
      const name = fileName(j + 1, exts[type]!);
      if (folderNames?.has(`${parentId}/${name}`))
        throw new Error(
          `generate: file ${j + 1} and a folder in the same folder are both named "${name}"; use names that differ`,
        );
      const id = idOf(prefix, 'f', j + 1);
      state.addGenerated(
        syntheticFileNode(user, parentId, { id, name, mimeType: types[type]!, bytes: size(j), seed: plan.seed }, now),
      );
    }
  }
  if (uncounted > 0) counted?.(uncounted);
}

function mayCollide(plan: GeneratePlan): boolean {
  if (plan.folders === 0 || plan.files === 0) return false;
  const [a, b] = [headOf(plan.folderName), headOf(plan.fileName)];
  return a.startsWith(b) || b.startsWith(a);
}
