import type { Argv, Options } from 'yargs';
import { OPTIONS, type OptionName, type OptionSpec } from '../option-table.js';

type ValueOf<S> = S extends { type: 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'strings' }
      ? string[]
      : S extends { choices: ReadonlyArray<infer C> }
        ? C
        : string;

/** The parsed value of each option of the table: present when it has a default, else possibly undefined. */
export type OptionValues = {
  -readonly [K in OptionName]: (typeof OPTIONS)[K] extends { default: unknown }
    ? ValueOf<(typeof OPTIONS)[K]>
    : ValueOf<(typeof OPTIONS)[K]> | undefined;
};

/** What a command may change of an entry for itself: its help line, or that it must be given. */
type OptionChange = Partial<OptionSpec> & { demandOption?: boolean };

/**
 * yargs renders a command's help each time it runs the command (kept for a failure, which ours never shows):
 * serve's options took a tenth of its start there. runCli leaves the table's options out of that text (yargs'
 * `hidden`) unless help is asked for.
 */
let inHelp = true;
export function tableOptionsInHelp(shown: boolean): void {
  inHelp = shown;
}

/** The table's entry as yargs reads it. */
function yargsOption(entry: OptionChange & Pick<OptionSpec, 'type'>): Options {
  const { type, path: _path, ...rest } = entry;
  const hidden = !inHelp;
  return type === 'strings' ? { ...rest, hidden, type: 'string', array: true } : { ...rest, hidden, type };
}

/** The options `names` of the table on a command, with `describe` (or more) changed where the command says. */
export function withOptions<T, K extends OptionName>(
  y: Argv<T>,
  names: readonly K[],
  changed: Partial<Record<K, OptionChange>> = {},
): Argv<T & Pick<OptionValues, K>> {
  let built = y as Argv<unknown>;
  for (const name of names) built = built.option(name, yargsOption({ ...OPTIONS[name], ...changed[name] }));
  return built as Argv<T & Pick<OptionValues, K>>;
}
