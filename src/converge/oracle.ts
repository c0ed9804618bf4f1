import { findingLines, type Finding } from './findings.js';
import type { Tree, TreeEntry } from './trees.js';

/** A file some step wrote (or the seed held) that no later step deleted: it must be somewhere at the end. */
export interface ExpectedFile {
  path: string;
  sha256: string;
  /** What wrote it, for the report ("the seed", "step 3: local modify"). */
  writtenBy: string;
}

export interface ConvergeOptions {
  /** Whose tree the folder mirrors. Default: the mock's first login. */
  user?: string;
  /** The history of a run: each file that must still exist, by content, in the folder or the account (loss). */
  expected?: readonly ExpectedFile[];
  /** Names of conflict copies, counted apart from duplicates. Default: names holding "conflict". */
  conflictCopy?: RegExp;
}

export interface ConvergeReport {
  /** True when nothing was found. */
  converged: boolean;
  /** Whose tree the folder was compared with. */
  user: string;
  findings: Finding[];
  /** Conflict copies seen (by path), which are neither duplicates nor divergence when both sides hold them. */
  conflictCopies: string[];
  folder: TreeEntry[];
  account: TreeEntry[];
}

const DEFAULT_CONFLICT_COPY = /conflict/i;

const short = (hash: string | undefined): string => (hash ? hash.slice(0, 12) : '-');

function described(entry: TreeEntry): string {
  return entry.kind === 'file'
    ? `a file of ${entry.bytes} bytes (sha256 ${short(entry.sha256)})`
    : entry.kind === 'folder'
      ? 'a folder'
      : 'neither a file nor a folder (a link, a device, ...)';
}

/** Names, kinds, sizes and contents that differ between the folder and the account, one finding a path. */
export function divergence(folder: Tree, account: Tree, user: string): Finding[] {
  const findings: Finding[] = [];
  const paths = [...new Set([...folder.keys(), ...account.keys()])].sort();
  for (const path of paths) {
    const here = folder.get(path);
    const there = account.get(path);
    if (here && there && here.kind === there.kind && here.sha256 === there.sha256) continue;
    const message = !there
      ? `${path} is only in the folder (${described(here!)})`
      : !here
        ? `${path} is only in ${user}'s tree (${described(there)})`
        : `${path} is ${described(here)} in the folder but ${described(there)} in ${user}'s tree`;
    findings.push({ kind: 'divergence', message, paths: [path] });
  }
  return findings;
}

/**
 * The same content under more names than the history made (one name without a history), in the folder and
 * the account together; conflict copies and empty files are left out.
 */
export function duplicates(
  folder: Tree,
  account: Tree,
  expected: readonly ExpectedFile[] | undefined,
  conflictCopy: RegExp,
): Finding[] {
  const byContent = new Map<string, Set<string>>();
  for (const entry of [...folder.values(), ...account.values()]) {
    if (entry.kind !== 'file' || !entry.bytes || conflictCopy.test(entry.path.slice(entry.path.lastIndexOf('/') + 1)))
      continue;
    const paths = byContent.get(entry.sha256!) ?? new Set<string>();
    paths.add(entry.path);
    byContent.set(entry.sha256!, paths);
  }
  const made = new Map<string, Set<string>>();
  for (const file of expected ?? []) made.set(file.sha256, (made.get(file.sha256) ?? new Set()).add(file.path));
  const findings: Finding[] = [];
  for (const [hash, paths] of byContent) {
    const allowed = Math.max(1, made.get(hash)?.size ?? 0);
    if (paths.size <= allowed) continue;
    const list = [...paths].sort();
    findings.push({
      kind: 'duplicates',
      message: `the same content (sha256 ${short(hash)}) is under ${list.length} names: ${list.join(', ')}${allowed > 1 ? ` (the steps made ${allowed})` : ''}`,
      paths: list,
    });
  }
  return findings;
}

/** Each expected file whose content is nowhere, in the folder or the account (under any name). */
export function loss(folder: Tree, account: Tree, expected: readonly ExpectedFile[], user: string): Finding[] {
  const present = new Set<string>();
  for (const entry of [...folder.values(), ...account.values()]) if (entry.sha256) present.add(entry.sha256);
  return expected
    .filter((file) => !present.has(file.sha256))
    .map((file) => ({
      kind: 'loss' as const,
      message: `${file.path} as written by ${file.writtenBy} (sha256 ${short(file.sha256)}) is neither in the folder nor in ${user}'s tree, and no later step deleted it`,
      paths: [file.path],
    }));
}

/** The oracle over two trees already read. */
export function compareTrees(
  folder: Tree,
  account: Tree,
  options: { user: string; expected?: readonly ExpectedFile[]; conflictCopy?: RegExp },
): ConvergeReport {
  const conflictCopy = options.conflictCopy ?? DEFAULT_CONFLICT_COPY;
  const findings = [
    ...divergence(folder, account, options.user),
    ...(options.expected ? loss(folder, account, options.expected, options.user) : []),
    ...duplicates(folder, account, options.expected, conflictCopy),
  ];
  const conflictCopies = [...new Set([...folder.keys(), ...account.keys()])]
    .filter((path) => conflictCopy.test(path.slice(path.lastIndexOf('/') + 1)))
    .sort();
  return {
    converged: findings.length === 0,
    user: options.user,
    findings,
    conflictCopies,
    folder: [...folder.values()],
    account: [...account.values()],
  };
}

/** The report as lines for a person: the verdict, then one line a finding. */
export function convergeText(report: ConvergeReport, dir: string): string {
  const { user } = report;
  const files = report.account.filter((e) => e.kind === 'file').length;
  const folders = report.account.filter((e) => e.kind === 'folder').length;
  if (report.converged)
    return `converged: ${dir} and ${user}'s tree hold the same ${files} files and ${folders} folders${report.conflictCopies.length ? ` (${report.conflictCopies.length} conflict copies)` : ''}\n`;
  return `not converged: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} between ${dir} and ${user}'s tree\n${findingLines(
    report.findings,
  )
    .map((line) => `  ${line}\n`)
    .join('')}`;
}
