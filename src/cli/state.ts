import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import type { SeedNode, StateNode } from '../index.js';
import { controlCommand, printAs, type ControlArgs } from './remote.js';

interface StateArgs {
  user?: string;
  seed: boolean;
  out?: string;
  'inline-limit'?: number;
}

function treeLines(nodes: StateNode[], indent: string, out: string[]): void {
  for (const n of nodes) {
    const tags = n.tags.length ? ` [${n.tags.join(', ')}]` : '';
    if ('container' in n) {
      out.push(`${indent}${n.container}/${tags}`);
      treeLines(n.children, `${indent}  `, out);
    } else {
      out.push(`${indent}${n.file}  ${n.bytes} bytes, ${n.mimeType}${n.public ? ', public' : ''}${tags}`);
    }
  }
}

/** Every seed node with a fixture reference, with the id its fixture path carries. */
function fixturesOf(nodes: SeedNode[] | 'demo' | undefined, found: string[] = []): string[] {
  if (!Array.isArray(nodes)) return found;
  for (const n of nodes) {
    if (n.fixture) found.push(n.fixture);
    fixturesOf(n.children, found);
  }
  return found;
}

export const stateCommand = (cli: CliContext): CommandModule<object, ControlArgs & StateArgs> =>
  controlCommand<StateArgs>(cli, {
    command: 'state',
    describe: 'print the live state of a running mock (as a tree, as JSON, or as a seed a scenario file accepts)',
    json: 'the JSON of GET /__admin/state',
    options: (y) =>
      y
        .option('user', { type: 'string', describe: "only this user's tree" })
        .option('seed', {
          type: 'boolean',
          default: false,
          describe: 'a scenario (seed.trees) that recreates this state; contents inline',
        })
        .option('out', {
          type: 'string',
          describe: 'with --seed: write FILE (a scenario) and its large files under fixtures/ beside it',
        })
        .option('inline-limit', {
          type: 'number',
          describe: 'with --seed: files larger than this many bytes become fixture files (default 65536)',
        })
        .example('$0 state', "every user's tree")
        .example('$0 state --user demo --json', 'one user, as JSON')
        .example(
          '$0 state --seed --out scenarios/after-sync.json',
          'save the state as a scenario; later: csp-mock serve --scenario after-sync',
        ),
    run: async (mock, args) => {
      if (args.seed) {
        const scenario = await mock.seed({ inlineLimit: args['inline-limit'] });
        const trees = scenario.seed?.trees ?? {};
        if (args.user !== undefined) {
          if (!(args.user in trees))
            throw new Error(`no user "${args.user}" (users: ${Object.keys(trees).join(', ')})`);
          scenario.seed = { trees: { [args.user]: trees[args.user]! } };
        }
        const fixtures = Object.values(scenario.seed?.trees ?? {}).flatMap((t) => fixturesOf(t));
        if (!args.out) {
          if (fixtures.length)
            throw new Error(
              `${fixtures.length} file(s) are larger than the inline limit: give --out FILE to write them as fixtures, or a larger --inline-limit`,
            );
          printLine(cli, JSON.stringify(scenario, null, 2));
          return;
        }
        const file = resolve(args.out);
        await mkdir(dirname(file), { recursive: true });
        for (const fixture of fixtures) {
          const id = /^fixtures\/([^./]+)/.exec(fixture)![1]!;
          const target = join(dirname(file), fixture);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, await mock.content(id));
        }
        await writeFile(file, `${JSON.stringify(scenario, null, 2)}\n`);
        printLine(
          cli,
          `wrote ${file}${fixtures.length ? ` and ${fixtures.length} fixture file(s) under ${join(dirname(file), 'fixtures')}` : ''}`,
        );
        return;
      }
      printAs(cli, args.json, await mock.state({ user: args.user }), (view) => {
        const lines = [`scenario ${view.scenario}`];
        for (const [user, tree] of Object.entries(view.users)) {
          lines.push(`${user} (root ${tree.rootId}${tree.recycled ? `, ${tree.recycled} in the recycle bin` : ''})`);
          treeLines(tree.tree, '  ', lines);
        }
        return lines.join('\n');
      });
    },
  });
