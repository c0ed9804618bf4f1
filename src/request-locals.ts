import type { JournalMarks } from './http/journal-marks.js';
import type { AnswerPlan } from './http/answer-writer.js';
import type { ActiveScenario } from './scenarios/active-scenario.js';
import type { ServiceContext } from './http/service-context.js';
import type { Links } from './xml/links.js';

// Every key a request's steps leave in res.locals, declared once (merged into express's Locals). Each is
// set by one step of src/app.ts's chain and read through its owner's accessor (userOf, linksOf, marksOf, activeOf).
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- express's Locals can only be extended here
  namespace Express {
    interface Locals {
      /** The login basicAuth accepted (http/auth.ts). */
      user?: string;
      /** The mock the request reached: its store and settings, for the service's shared routes (src/emulator.ts). */
      service?: ServiceContext;
      /** Absolute links for the origin the client reached (set in src/app.ts; rest/ reads them with linksOf). */
      links?: Links;
      /** What the journal notes about this request beyond its status (http/journal-marks.ts). */
      journal?: JournalMarks;
      /** The scenario the request was admitted under (scenarios/scenario-runtime.ts). */
      scenario?: ActiveScenario;
      /** Lets a switch go ahead without waiting for this request (scenarios/scenario-runtime.ts). */
      leaveSwitchGate?: (end: () => void) => void;
      /** Calls back if a switch or reset begins while this request is in flight (scenarios/scenario-runtime.ts). */
      onSwitch?: (fn: () => void) => void;
      /** A CORS preflight left to the fault rules, with the header names it asked for (http/cors.ts). */
      heldPreflight?: readonly string[];
      /** What earlier steps asked of this request's answer: hooks, pacing, truncation, taps (http/answer-writer.ts). */
      answer?: AnswerPlan;
    }
  }
}
