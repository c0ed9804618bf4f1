import { Router } from 'express';
import { journalFilterOf } from '../admin/journal-filter.js';
import type { Feature } from '../feature.js';
import { requestOrigin } from '../http/request-origin.js';
import { sendAnswer } from '../http/answer.js';
import { journalHarPieces } from './journal-to-har.js';

/** HAR out of the journal: GET /__admin/requests?format=har (any other format is the journal's own route). */
export const harFeature: Feature = {
  name: 'HAR',
  routes: (mock) =>
    Router().get('/requests', async (req, res, next) => {
      const { format, ...filters } = req.query;
      if (format !== 'har') return next();
      const requests = mock.journal.entries(journalFilterOf(filters));
      const pieces = journalHarPieces(requests, requestOrigin(req, mock.options.publicUrl, mock.mountPath));
      return sendAnswer(res, {
        status: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: { pieces },
      });
    }),
};
