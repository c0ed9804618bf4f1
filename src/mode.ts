import type { Express, RequestHandler } from 'express';
import type { CloudStore } from './domain/cloud-store.js';
import type { Recording } from './recording/format.js';
import { markAwaitingContinue, createRecordingProxy } from './record/recorder-proxy.js';
import { RecordingWriter, readRecording } from './recording/recording-io.js';
import { seedFromRecording } from './recording/seed-from-recording.js';
import { replayCredentials } from './replay/replay-credentials.js';
import { locateRecording } from './replay/scenario-replay.js';
import { redactedNames } from './recording/redaction.js';
import { createReplayHandler, type MissPolicy } from './replay/replayer.js';
import { parseUpstream } from './record/upstream.js';

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
  handler: RequestHandler | Express;
  /** Record mode forwards Expect: 100-continue itself instead of letting Node answer it. */
  onCheckContinue?: (req: Parameters<typeof markAwaitingContinue>[0]) => void;
  /** Back to the start of the recording (replay); nothing for the other modes. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

interface ModeContext {
  emulator: Express;
  store: CloudStore;
  publicUrl?: string;
  log: (line: string) => void;
  /** Where a recording name or relative path is looked up. */
  baseDir: string;
}

/** The one place the mode picks who answers a request. */
export async function dispatchMode(mode: MockMode, ctx: ModeContext): Promise<ModeDispatch> {
  switch (mode.kind) {
    case 'emulate':
      return { handler: ctx.emulator, reset: async () => undefined, close: async () => undefined };
    case 'record': {
      const redacted = redactedNames(mode.redact);
      const writer = await RecordingWriter.open(mode.out, redacted, mode.append ?? false, ctx.log);
      const proxy = createRecordingProxy({
        upstream: parseUpstream(mode.upstream),
        writer,
        redacted,
        sidecarThreshold: mode.sidecarThreshold,
        publicUrl: ctx.publicUrl,
        log: ctx.log,
      });
      return {
        handler: ((req, res) => proxy(req, res)) satisfies RequestHandler,
        onCheckContinue: markAwaitingContinue,
        reset: async () => undefined,
        close: () => proxy.settled(),
      };
    }
    case 'replay': {
      const recording =
        typeof mode.recording === 'string'
          ? await readRecording(locateRecording(mode.recording, ctx.baseDir))
          : mode.recording;
      const onMiss = mode.onMiss ?? 'error';
      // Misses go to an emulator that starts from what the recording shows.
      if (onMiss === 'emulate') await seedFromRecording(ctx.store, recording);
      const replay = createReplayHandler(recording, {
        onMiss,
        emulator: onMiss === 'emulate' ? ctx.emulator : undefined,
        upstream: mode.upstream ? parseUpstream(mode.upstream) : undefined,
        matchHeaders: mode.matchHeaders,
        ignoreQuery: mode.ignoreQuery,
        publicUrl: ctx.publicUrl,
        log: ctx.log,
      });
      const credentials = replayCredentials(recording, mode.users);
      return {
        handler: ((req, res, next) =>
          credentials(req, res, (err?: unknown) => (err ? next(err) : replay(req, res)))) satisfies RequestHandler,
        reset: async () => {
          replay.reset();
          if (onMiss === 'emulate') await seedFromRecording(ctx.store, recording);
        },
        close: async () => undefined,
      };
    }
  }
}
