import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { control, type Channel, type Feature } from '../feature.js';
import { HttpError } from '../http/errors.js';
import { compareTrees, type ConvergeOptions, type ConvergeReport } from './oracle.js';
import { accountTree, localTree, treeOf, type TreeEntry } from './trees.js';

/** GET /__admin/tree?user=U: a user's live tree with each file's size and SHA-256 (default: the first login). */
const userTree = control<{ user?: string }, { user: string; entries: TreeEntry[] }>({
  method: 'GET',
  path: '/tree',
  read: ({ query }) => {
    const { user } = query;
    if (user !== undefined && (typeof user !== 'string' || user === ''))
      throw new HttpError(400, 'query parameter "user" must be a login name');
    return { user };
  },
  send: ({ user }) => ({ query: { user } }),
  run: async (mock, input) => {
    const user = input.user ?? [...mock.options.users.keys()][0]!;
    if (!mock.store.tree.users().includes(user)) throw new HttpError(404, `no user "${user}"`);
    return { user, entries: await accountTree(mock.store, user) };
  },
});

/** The oracle's call on every handle. */
export interface ConvergeControls {
  /**
   * Does the folder `dir` (here, on this machine) hold what the user's tree in the mock holds (names, kinds,
   * sizes, contents), with no content under two names and, given `expected` (a run's history), nothing lost?
   * `expect((await mock.converge('./sync')).findings).toEqual([])`. See src/explore/README.md.
   */
  converge(dir: string, options?: ConvergeOptions): Promise<ConvergeReport>;
}

const isFolder = (dir: string): Promise<boolean> =>
  stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** The folder is read where the handle is; the account's tree comes over the channel. */
export function convergeControls(channel: Channel): ConvergeControls {
  return {
    converge: async (dir, options = {}) => {
      const path = resolve(dir);
      if (!(await isFolder(path))) throw new Error(`converge: ${path} is not a folder`);
      const [folder, account] = await Promise.all([localTree(path), channel.call(userTree, { user: options.user })]);
      return compareTrees(folder, treeOf(account.entries), { ...options, user: account.user });
    },
  };
}

/** The sync oracle: a read of a user's tree, compared on the caller's side with a folder. */
export const convergeFeature: Feature = { name: 'converge', controls: [userTree] };
