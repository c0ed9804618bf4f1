import type { Feature } from '../../feature.js';
import type { NetworkConditions } from '../types.js';
import { checkConditions } from './network-conditions.js';

/**
 * Network shaping: a scenario's `network` (bandwidth, slices, a slow close) for every request to the service;
 * a fault rule carries the same conditions (and a hang or a stalled upload) for the requests it matches.
 */
export const networkFeature: Feature = {
  name: 'network shaping',
  scenario: [
    {
      field: 'network',
      definitions: ['network', 'byteRate', 'bandwidth', 'slice', 'hang', 'slowClose', 'stallUpload'],
      check: (value, { source }) => checkConditions(value as NetworkConditions, 'network', source),
      // Field by field: a child that sets only bandwidth keeps its parent's slice.
      merge: (parent, own) => (parent || own ? { ...(parent as object), ...(own as object) } : undefined),
    },
  ],
};
