import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import { parseUserSpec } from '../option-table.js';
import type { TenantOptions, TenantView } from '../index.js';
import { controlCommand, printAs, withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

function describeTenant(t: TenantView): string {
  return `${t.name}  ${t.url}  scenario ${t.scenario}, last used ${t.lastUsed}${t.expires ? `, closes ${t.expires} if unused` : ''}`;
}

/** `csp-mock tenant create|list|delete`: the isolated mocks of a served mock, each under <url>/t/<name>. */
export const tenantCommand = (cli: CliContext): CommandModule<object, object> => ({
  command: 'tenant',
  describe: 'create, list or delete the tenants of a running mock (isolated mocks under /t/<name>)',
  builder: (y) =>
    y
      .command(
        controlCommand<{ name: string; scenario?: string; empty: boolean; user?: string[] }>(cli, {
          command: 'create <name>',
          describe: 'make a tenant (or keep the one of that name) and print its URL',
          json: 'print the tenant as JSON',
          options: (u) =>
            u
              .positional('name', { type: 'string', demandOption: true, describe: '1 to 40 of a-z, 0-9 and -' })
              .option('scenario', {
                type: 'string',
                describe: 'its scenario: a NAME the mock knows, or a PATH to a file of yours (read here, sent inline)',
              })
              .option('empty', { type: 'boolean', default: false, describe: 'empty trees instead of the seed' })
              .option('user', {
                type: 'string',
                array: true,
                describe: 'NAME:PASSWORD, repeatable (default: the server’s)',
              })
              .example(
                '$0 tenant create w1 --scenario tag-objects-500',
                'then: csp-mock reset --url http://127.0.0.1:8080/t/w1',
              ),
          run: async (mock, args) => {
            const options: TenantOptions = {};
            if (args.scenario !== undefined) options.scenario = args.scenario;
            if (args.empty) options.seed = 'empty';
            if (args.user?.length) options.users = parseUserSpec(args.user);
            const tenant = await mock.tenant(args.name, options);
            const view = (await mock.tenants()).find((t) => t.name === args.name);
            printAs(cli, args.json, view ?? { url: tenant.url }, () => tenant.url);
          },
        }),
      )
      .command(
        controlCommand(cli, {
          command: 'list',
          describe: "print the running mock's tenants",
          json: 'as JSON',
          run: async (mock, args) =>
            printAs(cli, args.json, await mock.tenants(), (all) =>
              all.length ? all.map(describeTenant).join('\n') : 'no tenants',
            ),
        }),
      )
      .command<RemoteArgs & { name: string }>({
        command: 'delete <name>',
        describe: 'close a tenant and drop its state',
        builder: (u) => withRemoteOptions(u).positional('name', { type: 'string', demandOption: true }) as never,
        handler: (args) =>
          withRemote(cli, args, async (mock) => {
            await mock.deleteTenant(args.name);
            printLine(cli, `deleted tenant ${args.name}`);
          }),
      })
      .demandCommand(1, 'say "create NAME", "list" or "delete NAME"'),
  handler: () => undefined,
});
