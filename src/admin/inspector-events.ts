import type { RequestHandler, Response } from 'express';
import type { JournalEvent, RequestJournal } from '../http/journal.js';
import type { ScenarioRuntime } from '../scenarios/scenario-runtime.js';
import { AdminSlots } from './admin-slots.js';

/** Open inspector streams at once (half of them from one source); more are refused, so watchers cannot pile up. */
export const MAX_STREAMS = 16;
/** A stream whose reader lags this far behind is dropped (the page reconnects and resynchronises). */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
const KEEP_ALIVE_MS = 15_000;

/**
 * Server-sent events for the inspector: first a "snapshot" of the journal, then "added" and "updated"
 * for each request, "cleared" when the journal is emptied and "scenario" after a switch or reset.
 */
export function inspectorStream(journal: RequestJournal, runtime: ScenarioRuntime): RequestHandler {
  const slots = new AdminSlots(MAX_STREAMS, 'inspector streams');
  return (req, res) => {
    const release = slots.take(req);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    const send = (type: string, data: unknown): void => {
      if (res.destroyed) return;
      if (res.writableLength > MAX_UNSENT_BYTES) {
        res.destroy();
        return;
      }
      res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    send('snapshot', { entries: journal.entries() });
    // The page shows the first bytes of each answer: kept only while a page watches.
    const stopPreviews = journal.previewBodies();
    const unsubscribeJournal = journal.subscribe((event: JournalEvent) =>
      send(event.type, event.type === 'cleared' ? {} : event.entry),
    );
    const unsubscribeScenario = runtime.subscribe(() => send('scenario', { name: runtime.scenario.name }));
    const keepAlive = setInterval(() => keepOpen(res), KEEP_ALIVE_MS);
    keepAlive.unref();
    req.socket.setTimeout(0);
    res.once('close', () => {
      release();
      stopPreviews();
      unsubscribeJournal();
      unsubscribeScenario();
      clearInterval(keepAlive);
    });
  };
}

function keepOpen(res: Response): void {
  if (!res.destroyed) res.write(': keep-alive\n\n');
}
