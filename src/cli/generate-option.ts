import type { Argv } from 'yargs';
import type { GenerateSpec } from '../scenarios/generate/generate-spec.js';

export interface GenerateArgs {
  generate?: string;
  'max-memory'?: string;
}

/** `serve --generate SPEC [--max-memory SIZE]`: a generated account per user (scenarios/README.md, "Generated accounts"). */
export function withGenerateOptions<T>(y: Argv<T>): Argv<T & GenerateArgs> {
  return y
    .option('generate', {
      type: 'string',
      describe:
        'a generated account per user, files of synthetic content (no bytes stored): files=N,folders=N,depth=N,size=200KB~20MB,seed=N or JSON',
    })
    .option('max-memory', {
      type: 'string',
      describe: 'with --generate: refuse an account estimated to need more memory than this (e.g. 2GiB)',
    }) as Argv<T & GenerateArgs>;
}

/**
 * The spec the options give (checked later, with the other options); throws on text that is no spec.
 * Its reader loads when serve runs, not with every command of the CLI.
 */
export async function generateSpecOf(args: GenerateArgs): Promise<GenerateSpec | undefined> {
  if (args.generate === undefined) {
    if (args['max-memory'] !== undefined) throw new Error('--max-memory applies only with --generate');
    return undefined;
  }
  const { parseGenerateShorthand } = await import('../scenarios/generate/generate-shorthand.js');
  const spec = parseGenerateShorthand(args.generate);
  return args['max-memory'] === undefined ? spec : { ...spec, maxMemory: args['max-memory'] };
}

/** The ready line's words for a generated account: what each user got, as counted in the store. */
export function describeGenerated(spec: GenerateSpec, objectsPerUser: number): string {
  const parts: string[] = [];
  if (spec.files !== undefined) parts.push(`${spec.files.toLocaleString('en-US')} files`);
  if (spec.filesPerFolder !== undefined) parts.push(`${spec.filesPerFolder.toLocaleString('en-US')} files a folder`);
  parts.push(`${(spec.folders ?? 0).toLocaleString('en-US')} folders`);
  if (spec.depth !== undefined) parts.push(`depth ${spec.depth}`);
  if (spec.size !== undefined)
    parts.push(`sizes ${typeof spec.size === 'object' ? JSON.stringify(spec.size) : spec.size}`);
  parts.push(`seed ${spec.seed ?? 1}`);
  return `generated for each user: ${parts.join(', ')} (${objectsPerUser.toLocaleString('en-US')} objects, content made on read)`;
}
