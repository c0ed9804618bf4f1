import type { Feature } from '../../feature.js';
import { ScenarioError } from '../scenario-error.js';
import { GenerateSpecError, resolveGenerateSpec } from './generate-spec.js';

const problemOf = (err: unknown): { field: string; problem: string } | undefined =>
  err instanceof GenerateSpecError ? { field: err.field, problem: err.problem } : undefined;

/** Generated accounts: a scenario's `seed.generate`, a tree of synthetic files for every user it has no tree for. */
export const generatedAccountsFeature: Feature = {
  name: 'generated accounts',
  scenario: [
    {
      field: 'seed.generate',
      definitions: ['generate', 'byteSize'],
      check: (value, { source, scenario, overHttp }) => {
        const fail = (field: string, problem: string): never => {
          throw new ScenarioError(source, `seed.generate${field ? `.${field}` : ''}`, problem);
        };
        if (scenario.seed?.tree !== undefined) fail('', 'give tree or generate, not both');
        // The memory cap keeps a generated account from ending the process: only the user may raise it.
        if (overHttp && typeof value === 'object' && value !== null && 'maxMemory' in value)
          fail(
            'maxMemory',
            'a scenario sent over HTTP cannot set the memory cap (what the heap has free, or serve --max-memory, applies)',
          );
        try {
          resolveGenerateSpec(value);
        } catch (err) {
          const problem = problemOf(err);
          if (!problem) throw err;
          fail(problem.field, problem.problem);
        }
      },
      // A generated seed too big for memory is found while the state is planned: the scenario's fault.
      problemOf,
    },
  ],
};
