import type { CommandModule } from 'yargs';
import { printLine, type CliContext } from './context.js';
import { describeLatency } from '../scenarios/latency-sampler.js';
import type { ScenarioSummary } from '../index.js';
import { controlCommand, printAs, withRemote, withRemoteOptions, type RemoteArgs } from './remote.js';

function describeScenario(s: ScenarioSummary): string {
  const parts = [`scenario ${s.name}`, `${s.faults} fault rule(s)`];
  if (s.latency) parts.push(`latency ${describeLatency(s.latency)}`);
  if (s.recording) parts.push(`replays ${s.recording}`);
  if (s.seeded) parts.push('own seed');
  return `${parts.join(', ')} (${s.source})${s.description ? `\n  ${s.description}` : ''}`;
}

/** `csp-mock scenario use NAME|PATH` and `csp-mock scenario show`: the running mock's scenario. */
export const scenarioCommand = (cli: CliContext): CommandModule<object, object> => ({
  command: 'scenario',
  describe: 'show or switch the scenario of a running mock',
  builder: (y) =>
    y
      .command(
        controlCommand<{ scenario: string }>(cli, {
          command: 'use <scenario>',
          describe:
            'switch the running mock to a scenario NAME or a PATH to a scenario file (a seeded one replaces the state)',
          json: 'print the answer as JSON',
          options: (u) =>
            u
              .positional('scenario', {
                type: 'string',
                demandOption: true,
                describe:
                  'NAME the mock knows (see "csp-mock scenarios"), or PATH to a file of yours: read here and sent whole, fixtures included',
              })
              .example('$0 scenario use tag-objects-500', 'the observed 500 on tag objects')
              .example(
                '$0 scenario use ./scenarios/my-faults.json --url http://127.0.0.1:9000',
                'a file of your own (read here, sent inline; the mock may run elsewhere)',
              ),
          run: async (mock, args) => {
            const { MockRefusedError } = await import('../remote/connect-mock.js');
            const before = await mock.scenario();
            const summary = await mock.useScenario(args.scenario).catch((err: unknown) => {
              // The mock names the field it refused ("scenario: no scenario named ..."): here it is what was typed.
              if (err instanceof MockRefusedError) throw new Error(err.reason.replace(/^scenario: /, ''));
              throw err;
            });
            printAs(cli, args.json, summary, (s) => `switched: ${describeScenario(s)}`);
            // Only a seeded scenario replaces the state: after one, the tree it made stays until a reset.
            if (!args.json && before.seeded && !summary.seeded)
              printLine(
                cli,
                `  the state stays as ${before.name}'s seed left it; "csp-mock reset" puts back ${summary.name}'s starting state`,
              );
          },
        }),
      )
      .command(
        controlCommand(cli, {
          command: 'show',
          describe: "print the running mock's scenario",
          json: 'print it as JSON',
          options: (u) => u.example('$0 scenario show', 'scenario default, 0 fault rule(s) (...)'),
          run: async (mock, args) => printAs(cli, args.json, await mock.scenario(), describeScenario),
        }),
      )
      .demandCommand(1, 'say "use NAME|PATH" or "show"')
      .example('$0 scenario use flaky-uploads', '')
      .example('$0 scenario show --url http://127.0.0.1:9000', ''),
  handler: () => undefined,
});

export const resetCommand = (cli: CliContext): CommandModule<object, RemoteArgs> => ({
  command: 'reset',
  describe: "put a running mock back to its scenario's seed (fault counters and journal cleared)",
  builder: (y) =>
    withRemoteOptions(y)
      .example('$0 reset', '')
      .example('CSP_MOCK_URL=http://127.0.0.1:9000 $0 reset', 'another port') as never,
  handler: (args) =>
    withRemote(cli, args, async (mock) => {
      await mock.reset();
      printLine(cli, `reset ${mock.url}`);
    }),
});
