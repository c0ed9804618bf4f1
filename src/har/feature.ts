import { Router } from 'express';
import { journalFilterOf } from '../admin/journal-filter.js';
import type { Feature } from '../feature.js';
import { requestOrigin } from '../http/request-origin.js';
import { SlicedAnswer } from '../http/sliced-answer.js';
import { writeJournalHar } from './journal-to-har.js';

/** HAR out of the journal: GET /__admin/requests?format=har (any other format is the journal's own route). */
export const harFeature: Feature = {
  name: 'HAR',
  routes: (mock) =>
    Router().get('/requests', async (req, res, next) => {
      const { format, ...filters } = req.query;
      if (format !== 'har') return next();
      const requests = mock.journal.entries(journalFilterOf(filters));
      const answer = new SlicedAnswer(res, 200, { 'Content-Type': 'application/json; charset=utf-8' });
      return writeJournalHar(answer, requests, requestOrigin(req, mock.options.publicUrl, mock.mountPath));
    }),
};
