/** The public API: everything a test suite imports. */
export { createApp, type MockApp } from './app.js';
export { startMock, type RunningMock, type StartOptions } from './server.js';
export { DEFAULT_USERS, type MockOptions } from './options.js';
export { CloudStore } from './domain/cloud-store.js';
export { DomainError, type DomainErrorCode } from './domain/errors.js';
export type { NodeRecord, StateData } from './storage/schema.js';
export type { JournalEntry, RequestOutcome } from './http/journal.js';
export { ScenarioError } from './scenarios/scenario-error.js';
export type {
  FaultMatch,
  FaultResponse,
  FaultRule,
  ReplayHandlerFactory,
  ResolvedScenario,
  ScenarioDefinition,
  ScenarioSeed,
  SeedNode,
} from './scenarios/types.js';
