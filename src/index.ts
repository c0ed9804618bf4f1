/** The public API: everything a test suite imports. */
export { createApp, type MockApp } from './app.js';
export { startMock, type HttpsEndpoint, type RunningMock, type StartOptions, type TenantSettings } from './server.js';
export type { HttpsOptions } from './tls/server-identity.js';
export type { MockControls } from './features.js';
export type { ClockControls } from './clock/clock-controls.js';
export type { ClockSettings, ClockState } from './clock/mock-clock.js';
export { DEFAULT_USERS, type MockOptions, type Progress } from './options.js';
export { CloudStore } from './domain/cloud-store.js';
export { DomainError, type DomainErrorCode } from './domain/errors.js';
export type { NodeRecord, StateData } from './domain/model.js';
export type { DeviceChangeNote, JournalBody, JournalEntry, JournalFilter, RequestOutcome } from './http/journal.js';
export { RequestWaitTimeout, type WaitOptions } from './http/journal-wait.js';
export { auditJournal } from './audit/audit.js';
export {
  AUDIT_RULES,
  type AuditFinding,
  type AuditOptions,
  type AuditReport,
  type AuditRuleId,
  type AuditSeverity,
  type AuditedRequest,
} from './audit/audit-types.js';
export { ScenarioError } from './scenarios/scenario-error.js';
export { ChangeRefusedError } from './device/change-refused.js';
export type {
  ChangeTrigger,
  DeviceChange,
  FaultMatch,
  RandomEditor,
  RandomKind,
  FaultResponse,
  FaultRule,
  NetworkConditions,
  ReplayHandlerFactory,
  ResolvedScenario,
  ScenarioDefinition,
  ScenarioSeed,
  SeedNode,
} from './scenarios/types.js';
export type { MockMode } from './mode.js';
export { createReplayHandler, type MissPolicy, type ReplayHandler, type ReplayOptions } from './replay/replayer.js';
export { readRecording, readRecordingDocument, RecordingError, RecordingWriter } from './recording/recording-io.js';
export type { Recording, Exchange, RecordingDocument, RecordingHeader, StoredExchange } from './recording/format.js';
export { recordingToState } from './recording/recording-to-state.js';
export type { RecordedTree } from './recording/recorded-tree.js';
export { seedFromRecording } from './recording/seed-from-recording.js';
export { verifyRecording, type VerifyReport } from './verify/verify-recording.js';
export { interceptCloud, type CloudInterception, type InterceptOptions } from './intercept/intercept-cloud.js';
export {
  connectMock,
  MockConnectionError,
  MockRefusedError,
  type ConnectOptions,
  type RemoteMock,
  type ScenarioSummary,
  type StateOptions,
} from './remote/connect-mock.js';
export type { TenantOptions, TenantView } from './remote/tenant-calls.js';
export type { StateView, StateNode } from './admin/state-view.js';
export type { ConvergeOptions, ConvergeReport, ExpectedFile } from './converge/oracle.js';
export type { Finding, FindingKind } from './converge/findings.js';
export type { TreeEntry } from './converge/trees.js';
export {
  explore,
  type ExploreFailure,
  type ExploreOptions,
  type ExploreProgress,
  type ExploreReport,
} from './explore/explore.js';
export type { PassContext, SyncClient } from './explore/client-pass.js';
export type { CoverageRow } from './explore/coverage.js';
export type { ReproBundle } from './explore/repro-bundle.js';
export type { LocalEdit, Step, StepKind } from './explore/schedule.js';
export { auditFails, auditText } from './audit/audit-text.js';
export { readJournalFile } from './audit/journal-file.js';
export { locateRecording } from './replay/scenario-replay.js';
export { checkRecordingAge, parseMaxAge, StaleRecordingError } from './recording/recording-age.js';
export { listScenarios, type ScenarioListing } from './scenarios/catalog.js';
export { recordingToHar } from './har/recording-to-har.js';
export { journalToHar } from './har/journal-to-har.js';
export { readHar } from './har/har-read.js';
export { importHar, type HarImportOptions, type HarImportSummary } from './har/har-to-recording.js';
export type { Har } from './har/har-types.js';
