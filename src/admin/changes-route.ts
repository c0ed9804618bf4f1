import type { RequestHandler } from 'express';
import { ChangeRefusedError } from '../device/change-refused.js';
import type { SecondDevice } from '../device/second-device.js';
import { HttpError } from '../http/errors.js';
import { ScenarioError } from '../scenarios/scenario-error.js';

/**
 * POST /__admin/changes: the second device applies a change (or a list, in order) now. 200 with their
 * journal entries; 400 naming the field of a malformed change (nothing applied); 404 or 409 with the
 * reason when one cannot apply (the ones before it stay applied).
 */
export function postChanges(device: SecondDevice): RequestHandler {
  return async (req, res) => {
    try {
      res.json({
        changes: await device.change(req.body, 'POST /__admin/changes', 'on demand (POST /__admin/changes)'),
      });
    } catch (err) {
      if (err instanceof ScenarioError) throw new HttpError(400, err.message);
      if (err instanceof ChangeRefusedError) throw new HttpError(err.status, err.message);
      throw err;
    }
  };
}
