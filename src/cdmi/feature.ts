import type { Feature } from '../feature.js';

/**
 * CDMI notification queues, the sync client's change feed: /cdmi under the service's Basic auth, loaded on the
 * first /cdmi request (only a sync client reads the feed). The queues themselves are the store's (domain/).
 */
export const cdmiFeature: Feature = {
  name: 'cdmi',
  service: { path: '/cdmi', routes: async () => (await import('./cdmi-router.js')).cdmiRouter() },
};
