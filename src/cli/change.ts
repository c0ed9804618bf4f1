import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import type { DeviceChange } from '../index.js';
import { requestLine } from './requests.js';
import { withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

const KINDS = ['create', 'create-folder', 'overwrite', 'rename', 'move', 'delete', 'metadata', 'tags', 'quota', 'json'];

interface ChangeArgs extends RemoteArgs {
  kind: string;
  target: string;
  user?: string;
  to?: string;
  text?: string;
  'mime-type'?: string;
  set?: string[];
  add?: string[];
  remove?: string[];
  json: boolean;
}

/** "key=value" pairs of --set into an object. */
function pairsOf(items: string[] | undefined): Record<string, string> | undefined {
  if (!items) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at < 1) throw new Error(`--set takes KEY=VALUE, got "${item}"`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** The change the command line describes (the mock checks it, and names a wrong field). */
export function changeOf(args: ChangeArgs): unknown {
  if (args.kind === 'json') {
    try {
      return JSON.parse(args.target) as unknown;
    } catch {
      throw new Error('"change json" takes a change (or a list) as JSON, e.g. \'{"delete": "/Documents/a.txt"}\'');
    }
  }
  const kind = args.kind === 'create-folder' ? 'createFolder' : args.kind;
  if ((kind === 'rename' || kind === 'move') && args.to === undefined)
    throw new Error(
      `change ${kind} needs --to (${kind === 'rename' ? 'the new name' : 'the destination folder path'})`,
    );
  if (kind === 'quota') {
    if (!/^\d+$/.test(args.target)) throw new Error(`"change quota" takes the bytes allocated, got "${args.target}"`);
    return { user: args.user, quota: Number(args.target) };
  }
  const change: Record<string, unknown> = {
    user: args.user,
    [kind]: args.target,
    to: args.to,
    text: args.text,
    mimeType: args['mime-type'],
    set: pairsOf(args.set),
    add: args.add,
    remove: args.remove,
  };
  for (const key of Object.keys(change)) if (change[key] === undefined) delete change[key];
  return change as unknown as DeviceChange;
}

/** `csp-mock change rename /Documents/report.txt --to old.txt`: the second device changes a running mock's account. */
export const changeCommand = (cli: CliContext): CommandModule<object, ChangeArgs> => ({
  command: 'change <kind> <target>',
  describe: "a second device changes a running mock's account now (as another client would)",
  builder: (y) =>
    withRemoteOptions(y)
      .positional('kind', { type: 'string', choices: KINDS, demandOption: true, describe: 'what to change' })
      .positional('target', {
        type: 'string',
        demandOption: true,
        describe: "the object's path in the user's tree (/Documents/a.txt); for quota the bytes; for json the change",
      })
      .option('user', { type: 'string', describe: "whose tree (default: the mock's first login, demo)" })
      .option('to', { type: 'string', describe: 'rename: the new name; move: the destination folder path' })
      .option('text', { type: 'string', describe: 'create, overwrite: the content' })
      .option('mime-type', { type: 'string', describe: 'create: the MIME type' })
      .option('set', { type: 'array', string: true, describe: 'metadata: KEY=VALUE to set (repeatable)' })
      .option('add', { type: 'array', string: true, describe: 'tags: tags to add (repeatable)' })
      .option('remove', { type: 'array', string: true, describe: 'metadata keys or tags to remove (repeatable)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the journal entries as JSON' })
      .example('$0 change rename /Documents/report.txt --to report-old.txt', "rename behind the client's back")
      .example('$0 change overwrite /Documents/report.txt --text "v2"', 'a new ETag between HEAD and GET')
      .example('$0 change tags /Photos --add holiday --remove old', '')
      .example('$0 change quota 1000000 --user alice', 'shrink an account')
      .example('$0 change json \'[{"delete": "/a.txt"}, {"createFolder": "/New"}]\'', 'several, in order') as never,
  handler: (args) =>
    withRemote(cli, args, async (mock) => {
      const entries = await mock.change(changeOf(args) as DeviceChange);
      for (const e of entries) printLine(cli, args.json ? JSON.stringify(e) : requestLine(e));
    }),
});
