/** What the oracle and a run can find wrong with a sync client. */
export type FindingKind = 'divergence' | 'loss' | 'duplicates' | 'audit' | 'client-failure';

export const FINDING_KINDS: readonly FindingKind[] = ['divergence', 'loss', 'duplicates', 'audit', 'client-failure'];

export interface Finding {
  kind: FindingKind;
  /** One line: what is wrong, where. */
  message: string;
  /** The paths it concerns (from the tree's root, "/Documents/notes.md"), when it concerns paths. */
  paths: string[];
}

/** "divergence: ..." lines, one a finding. */
export function findingLines(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.kind}: ${f.message}`);
}
