import { CORE_CONTROLS, journalControls, type JournalControls } from './admin/core-controls.js';
import { auditControls, auditFeature, type AuditControls } from './audit/feature.js';
import type { ClockControls } from './clock/clock-controls.js';
import { cdmiFeature } from './cdmi/feature.js';
import { clockControls, clockFeature } from './clock/feature.js';
import { convergeControls, convergeFeature, type ConvergeControls } from './converge/feature.js';
import { deviceControls, deviceFeature, type DeviceControls } from './device/feature.js';
import type { Channel, Feature } from './feature.js';
import { harFeature } from './har/feature.js';
import { generatedAccountsFeature } from './scenarios/generate/feature.js';
import { networkFeature } from './scenarios/network/feature.js';
import { tenantsFeature } from './tenants/feature.js';
import { tlsFeature } from './tls/feature.js';

/**
 * Every feature of a mock, each declared in its own folder's feature.ts: app.ts mounts them in this order,
 * the admin router serves their routes and controls, and every handle is made of their calls. A new feature
 * is a folder and a line here (and a line in MockControls and mockControls when it adds calls to the handle).
 */
export const FEATURES: readonly Feature[] = [
  { name: 'scenario and journal', controls: CORE_CONTROLS },
  harFeature,
  clockFeature,
  deviceFeature,
  auditFeature,
  convergeFeature,
  tlsFeature,
  tenantsFeature,
  cdmiFeature,
  networkFeature,
  generatedAccountsFeature,
  {
    name: 'interface deviations',
    // Answers a real client expects where the interface document says otherwise (rest/deviations.ts); a parent's stay on.
    scenario: [
      {
        field: 'deviations',
        definitions: [],
        merge: (parent, own) => [...new Set([...((parent as []) ?? []), ...((own as []) ?? [])])],
      },
    ],
  },
];

/** The features' parts of a scenario, for every reader of scenarios. */
export const SCENARIO_SECTIONS = FEATURES.flatMap((feature) => feature.scenario ?? []);

/** The features' surfaces of the service, for every mock's emulator. */
export const SERVICE_SURFACES = FEATURES.flatMap((feature) => (feature.service ? [feature.service] : []));

/**
 * The calls a test makes between its cases, alike on every mock a suite can hold: startMock's (in this
 * process), connectMock's (another process) and interceptCloud's (no port). All are async, so one test
 * body runs unchanged against any of them.
 */
export interface MockControls extends JournalControls, DeviceControls, AuditControls, ConvergeControls {
  /** The mock's clock (entity times, Date, Last-Modified, lock expiry): `await mock.clock.advance('2d')`. */
  readonly clock: ClockControls;
}

/** The handle's calls over a channel: in this process (createApp's `controls`) or an admin API (connectMock). */
export function mockControls(channel: Channel): MockControls {
  return {
    ...journalControls(channel),
    clock: clockControls(channel),
    ...deviceControls(channel),
    ...auditControls(channel),
    ...convergeControls(channel),
  };
}
