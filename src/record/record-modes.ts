/** The recording modes of `record --mode`, after nock back's and VCR's record modes. */
export const RECORD_MODES = ['once', 'new', 'all'] as const;
export type RecordMode = (typeof RECORD_MODES)[number];

/** How a mode serves requests, given whether its recording exists yet. */
export type RecordPlan =
  /** Every request goes to the upstream and is written (a new file, or added to with `append`). */
  | { kind: 'record'; append: boolean }
  /**
   * The recording answers. A request it does not hold is refused (miss 'error', replay's 404 naming the
   * nearest recorded requests) or sent to the upstream and appended (miss 'proxy'). With `repeatLast`
   * a client's last recorded answer repeats once it has had them all (replay's rule); without it, one
   * more identical request than was recorded is a new exchange.
   */
  | { kind: 'replay'; onMiss: 'error' | 'proxy'; repeatLast: boolean };

export interface RecordModeStrategy {
  /** For --help. */
  describe: string;
  plan(recordingExists: boolean, append: boolean): RecordPlan;
}

export const RECORD_MODE_STRATEGIES: Record<RecordMode, RecordModeStrategy> = {
  // once: the first run records; from then on the recording answers and a request it lacks is refused.
  once: {
    describe: 'record when the recording does not exist yet; else replay it and refuse requests it does not hold',
    plan: (exists) =>
      exists ? { kind: 'replay', onMiss: 'error', repeatLast: true } : { kind: 'record', append: false },
  },
  // new: what was recorded replays (per client, in order); anything beyond it is recorded and appended.
  new: {
    describe: 'replay the requests the recording holds, record and append the ones it does not',
    plan: (exists) =>
      exists ? { kind: 'replay', onMiss: 'proxy', repeatLast: false } : { kind: 'record', append: false },
  },
  // all: everything goes to the upstream and is recorded afresh (added to the file with --append).
  all: {
    describe: 'record every request again, replacing the recording (the default; --append keeps it)',
    plan: (_exists, append) => ({ kind: 'record', append }),
  },
};

/** What a plan does, for the ready line. */
export function describePlan(mode: RecordMode, plan: RecordPlan): string {
  if (plan.kind === 'record')
    return `${mode}: recording every request${plan.append ? ', added to the recording' : ''}${mode === 'all' ? '' : ' (no recording yet)'}`;
  return plan.onMiss === 'error'
    ? `${mode}: replaying the recording; a request it does not hold is refused (404 naming it)`
    : `${mode}: replaying the recording; requests it does not hold are recorded and appended`;
}
