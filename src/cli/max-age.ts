import type { Argv } from 'yargs';

export interface MaxAgeArgs {
  'max-age'?: string;
}

/** --max-age, shared by replay and verify. */
export function withMaxAgeOption<T>(y: Argv<T>): Argv<T & MaxAgeArgs> {
  return y.option('max-age', {
    type: 'string',
    describe:
      'refuse a recording older than this (e.g. 30d, 1.5d, 12h; units ms s m h d w) or one of unknown age, with one line and exit 1 (for CI)',
  }) as unknown as Argv<T & MaxAgeArgs>;
}

/**
 * With --max-age, a stale recording (or one of unknown age) stops the command before anything starts:
 * one line on stderr, exit 1, nothing changed.
 */
export async function refuseStaleRecording(recording: string, args: MaxAgeArgs): Promise<void> {
  const maxAge = args['max-age'];
  if (maxAge === undefined) return;
  const [{ checkRecordingAge, parseMaxAge }, { locateRecording }] = await Promise.all([
    import('../recording/recording-age.js'),
    import('../replay/scenario-replay.js'),
  ]);
  try {
    await checkRecordingAge(locateRecording(recording, process.cwd()), parseMaxAge(maxAge), maxAge);
  } catch (err) {
    process.stderr.write(`csp-mock: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
