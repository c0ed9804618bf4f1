import { control, PartKey, type Channel, type Feature } from '../feature.js';
import { HttpError } from '../http/errors.js';
import type { JournalEntry } from '../http/journal.js';
import type { DeviceChange } from '../scenarios/types.js';
import { changesSection } from '../scenarios/change-check.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import { ChangeRefusedError } from './change-refused.js';
import { SecondDevice } from './second-device.js';

const DEVICE = new PartKey<SecondDevice>('the second device');

interface ChangeRequest {
  changes: unknown;
  /** Who asked, for the errors and the journal (over HTTP: the admin route). */
  asked?: { source: string; trigger: string };
}

/**
 * POST /__admin/changes: the second device applies a change (or a list, in order) now. 200 with their journal
 * entries; 400 naming the field of a malformed change (nothing applied); 404 or 409 with the reason when one
 * cannot apply (the ones before it stay applied).
 */
const applyChanges = control<ChangeRequest, { changes: JournalEntry[] }>({
  method: 'POST',
  path: '/changes',
  read: ({ body }) => ({
    changes: body,
    asked: { source: 'POST /__admin/changes', trigger: 'on demand (POST /__admin/changes)' },
  }),
  send: ({ changes }) => ({ body: changes }),
  run: async (mock, { changes, asked }) => ({
    changes: await mock.part(DEVICE).change(changes, asked?.source, asked?.trigger),
  }),
  answerOf: (err) => {
    if (err instanceof ScenarioError) return new HttpError(400, err.message);
    if (err instanceof ChangeRefusedError) return new HttpError(err.status, err.message);
    return undefined;
  },
  // The same error as in-process: a refused change is the test's business, not a broken connection.
  refusal: (status, text) =>
    (status === 404 || status === 409) && text !== '' ? new ChangeRefusedError(status, text) : undefined,
});

/** The second device's call on every handle. */
export interface DeviceControls {
  /**
   * A second device changes the account now (one change or a list, in order), through the domain as a
   * client would: `mock.change({ user: 'demo', rename: '/Documents/report.txt', to: 'old.txt' })`. Resolves
   * with the changes' journal entries; rejects with ChangeRefusedError (404, 409) when one cannot apply.
   */
  change(change: DeviceChange | readonly DeviceChange[]): Promise<JournalEntry[]>;
}

export function deviceControls(channel: Channel): DeviceControls {
  return { change: async (changes) => (await channel.call(applyChanges, { changes })).changes };
}

/** The second device: triggered, random and on-demand changes, armed afresh at every start, switch and reset. */
export const deviceFeature: Feature = {
  name: 'second device',
  controls: [applyChanges],
  scenario: [changesSection('scenario'), { field: 'randomEditor', definitions: ['randomEditor'] }],
  mount: (mock) => {
    const device = new SecondDevice({
      store: mock.store,
      journal: mock.journal,
      scenarioName: () => mock.scenarios.scenario.name,
      users: () => mock.scenarios.users(),
      log: mock.options.log,
    });
    device.arm(mock.scenarios.scenario);
    mock.provide(DEVICE, device);
    return {
      // counts the requests its armed changes wait for
      steps: { admitted: device.step() },
      switched: () => device.arm(mock.scenarios.scenario),
      close: () => device.disarm(),
    };
  },
};
