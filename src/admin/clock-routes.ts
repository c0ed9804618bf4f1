import { Router, type RequestHandler } from 'express';
import { applyClockAction, clockActionOf } from '../clock/clock-controls.js';
import { TimeValueError } from '../clock/durations.js';
import type { ClockSettings, MockClock } from '../clock/mock-clock.js';
import { HttpError } from '../http/errors.js';

/**
 * /__admin/clock: GET shows the mock's clock; POST moves it with one action ({"advance": "2d"},
 * {"set": TIME}, {"offset": "-5m"}, {"freeze": true|TIME}, {"resume": true}, {"reset": true}) and
 * answers with the clock after it.
 */
export function clockRoutes(
  clock: MockClock,
  scenarioClock: () => ClockSettings | undefined,
  jsonBody: RequestHandler,
): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.json(clock.state());
  });
  router.post('/', jsonBody, (req, res) => {
    try {
      res.json(applyClockAction(clock, clockActionOf(req.body), scenarioClock));
    } catch (err) {
      if (err instanceof TimeValueError) throw new HttpError(400, err.message);
      throw err;
    }
  });
  return router;
}
