import type { RequestHandler } from 'express';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Emulator } from './emulator.js';
import type { Recording } from './recording/format.js';
import type { RecordedTree } from './recording/recorded-tree.js';
import type * as RecordedSeeding from './recording/seed-from-recording.js';
import type { MissPolicy } from './replay/replayer.js';
import type { RecordMode, RecordPlan } from './record/record-modes.js';

// Record and replay are loaded by the mode that uses them: serve never loads them, so it starts sooner.

/** How the mock answers: the three modes, one closed union. */
export type MockMode =
  /** The emulator answers from its own store (the default). */
  | { kind: 'emulate' }
  /** A reverse proxy to `upstream` that writes every exchange to `out`. */
  | {
      kind: 'record';
      upstream: string;
      out: string;
      /** Header and query names to keep out of the recording, besides the built-in ones. */
      redact?: string[];
      /** Bodies above this many bytes go to sidecar files (default 64 KiB). */
      sidecarThreshold?: number;
      /** Keep the exchanges already in `out` and add to them. */
      append?: boolean;
      /** once | new | all (the default): what happens to requests `out` already holds (record/record-modes.ts). */
      recordMode?: RecordMode;
      /** A CA certificate file (PEM) the upstream's certificate is verified with, besides Node's own roots. */
      upstreamCa?: string;
    }
  /** Answers from a recording (a file path or one already loaded). */
  | {
      kind: 'replay';
      recording: string | Recording;
      onMiss?: MissPolicy;
      /** For onMiss 'proxy'. */
      upstream?: string;
      matchHeaders?: string[];
      ignoreQuery?: string[];
      /** Logins and passwords replay accepts (others get 401); default: any login replays. */
      users?: Record<string, string>;
    };

export interface ModeDispatch {
  handler: RequestHandler;
  /** Hooks the mode needs on the server itself (record: Expect: 100-continue is the upstream's to answer). */
  attach(server: Server, listener: RequestListener): void;
  /** Back to the start of the recording (replay); nothing for the other modes. */
  reset(): void;
  close(): Promise<void>;
}

/** A mode ready before the store opens: a replayed recording is read (its trees are the starting state's). */
export type PreparedMode =
  | Exclude<MockMode, { kind: 'replay' | 'record' }>
  /** A record mode's plan; a plan that replays comes with the recording, read. */
  | (MockMode & { kind: 'record'; plan: RecordPlan; recording?: Recording })
  | (MockMode & {
      kind: 'replay';
      recording: Recording;
      /** Emulated misses without --user: each recorded login -> the emulator's throw-away password for it. */
      emulatedLogins?: ReadonlyMap<string, string>;
    });

/**
 * Reads what the mode needs before anything else: replay's recording. With misses emulated, the
 * emulator starts from what the recording shows: its trees go to the starting state, which seeds
 * them with everything else, at start and on every reset, in one transaction.
 */
export async function prepareMode(
  mode: MockMode,
  baseDir: string,
  starting: { useRecordedTree(tree: RecordedTree, seeding: typeof RecordedSeeding): void },
): Promise<PreparedMode> {
  if (mode.kind === 'record') return prepareRecordMode(mode, baseDir);
  if (mode.kind !== 'replay') return mode;
  let recording = mode.recording;
  if (typeof recording === 'string') {
    const [{ readRecording }, { locateRecording }] = await Promise.all([
      import('./recording/recording-io.js'),
      import('./replay/scenario-replay.js'),
    ]);
    // Replay streams sidecar bodies from disk; the emulator behind emulated misses starts from their bytes.
    const lazyBodies = (mode.onMiss ?? 'error') !== 'emulate';
    recording = await readRecording(locateRecording(recording, baseDir), { lazyBodies });
  }
  if ((mode.onMiss ?? 'error') === 'emulate') {
    const [{ recordingToState }, seeding, { randomBytes }] = await Promise.all([
      import('./recording/recording-to-state.js'),
      import('./recording/seed-from-recording.js'),
      import('node:crypto'),
    ]);
    const tree = recordingToState(recording);
    starting.useRecordedTree(tree, seeding);
    // Replay without --user takes any password (credentials were never recorded); its emulated misses do too.
    if (!mode.users) {
      const password = randomBytes(9).toString('base64url');
      return {
        ...mode,
        recording,
        emulatedLogins: new Map([...seeding.recordedUsers(tree)].map((u) => [u, password])),
      };
    }
  }
  return { ...mode, recording };
}

/** Record modes that replay what `out` holds read it now, as replay does (bodies left on disk). */
async function prepareRecordMode(
  mode: MockMode & { kind: 'record' },
  baseDir: string,
): Promise<PreparedMode & { kind: 'record' }> {
  const [{ RECORD_MODE_STRATEGIES }, { existsSync }, { resolve }] = await Promise.all([
    import('./record/record-modes.js'),
    import('node:fs'),
    import('node:path'),
  ]);
  const out = resolve(baseDir, mode.out);
  const plan = RECORD_MODE_STRATEGIES[mode.recordMode ?? 'all'].plan(existsSync(out), mode.append ?? false);
  if (plan.kind === 'record') return { ...mode, plan };
  const { readRecording } = await import('./recording/recording-io.js');
  const recording = await readRecording(out, { lazyBodies: true });
  // Names given now are kept out of what gets appended too.
  const { redactedNames } = await import('./http/redaction.js');
  recording.redacted = redactedNames([...recording.redacted, ...(mode.redact ?? [])]);
  return { ...mode, plan, recording };
}

interface ModeContext {
  emulator: Emulator;
  publicUrl?: string;
  log: (line: string) => void;
}

const nothing = {
  attach: () => undefined,
  reset: () => undefined,
  close: async () => undefined,
};

/** The one place the mode picks who answers a request. */
export async function dispatchMode(mode: PreparedMode, ctx: ModeContext): Promise<ModeDispatch> {
  switch (mode.kind) {
    case 'emulate':
      return { ...nothing, handler: ctx.emulator.routes };
    case 'record': {
      if (mode.plan.kind === 'replay' && mode.recording)
        return replayDispatch(mode.recording, ctx, {
          onMiss: mode.plan.onMiss,
          upstream: mode.upstream,
          repeatLast: mode.plan.repeatLast,
        });
      const [
        { createRecordingProxy, markAwaitingContinue },
        { RecordingWriter },
        { redactedNames },
        { parseUpstream, readUpstreamCa },
      ] = await Promise.all([
        import('./record/recorder-proxy.js'),
        import('./recording/recording-io.js'),
        import('./http/redaction.js'),
        import('./record/upstream.js'),
      ]);
      // Read before the recording is opened: a bad CA file changes nothing.
      const upstream = parseUpstream(mode.upstream, await readUpstreamCa(mode.upstreamCa));
      const redacted = redactedNames(mode.redact);
      const writer = await RecordingWriter.open(
        mode.out,
        redacted,
        mode.plan.kind === 'record' && mode.plan.append,
        ctx.log,
      );
      const proxy = createRecordingProxy({
        upstream,
        writer,
        redacted,
        sidecarThreshold: mode.sidecarThreshold,
        publicUrl: ctx.publicUrl,
        log: ctx.log,
      });
      return {
        handler: ((req, res) => proxy(req, res)) satisfies RequestHandler,
        // Node answers Expect: 100-continue itself unless someone listens; here the upstream decides.
        attach: (server, listener) =>
          server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
            markAwaitingContinue(req);
            listener(req, res);
          }),
        reset: () => undefined,
        close: () => proxy.settled(),
      };
    }
    case 'replay':
      return replayDispatch(mode.recording, ctx, {
        onMiss: mode.onMiss ?? 'error',
        upstream: mode.upstream,
        matchHeaders: mode.matchHeaders,
        ignoreQuery: mode.ignoreQuery,
        users: mode.users,
        emulatedLogins: mode.emulatedLogins,
      });
  }
}

interface ReplaySettings {
  onMiss: MissPolicy;
  upstream?: string;
  matchHeaders?: string[];
  ignoreQuery?: string[];
  users?: Record<string, string>;
  emulatedLogins?: ReadonlyMap<string, string>;
  repeatLast?: boolean;
}

/** A recording answers: replay, and the record modes that replay what they hold. */
async function replayDispatch(recording: Recording, ctx: ModeContext, settings: ReplaySettings): Promise<ModeDispatch> {
  const [{ createReplayHandler }, { replayCredentials, recordedLoginsAccepted }, { parseUpstream }] = await Promise.all(
    [import('./replay/replayer.js'), import('./replay/replay-credentials.js'), import('./record/upstream.js')],
  );
  const { onMiss } = settings;
  const replay = createReplayHandler(recording, {
    onMiss,
    emulator:
      onMiss === 'emulate' ? recordedLoginsAccepted(ctx.emulator.listener(), settings.emulatedLogins) : undefined,
    upstream: settings.upstream ? parseUpstream(settings.upstream) : undefined,
    matchHeaders: settings.matchHeaders,
    ignoreQuery: settings.ignoreQuery,
    repeatLast: settings.repeatLast,
    publicUrl: ctx.publicUrl,
    log: ctx.log,
  });
  const credentials = replayCredentials(settings.users);
  return {
    ...nothing,
    handler: ((req, res, next) =>
      credentials(req, res, (err?: unknown) => (err ? next(err) : replay(req, res)))) satisfies RequestHandler,
    // The emulator's state goes back with the scenario's reset (the starting state holds the recorded trees).
    reset: () => replay.reset(),
    close: () => replay.settled(),
  };
}
