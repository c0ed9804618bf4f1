import { readContainedFile } from '../files/contained-file.js';
import type { JournalEntry } from '../http/journal.js';

/** Fields a journal entry must have for the audit to read it. */
function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e['seq'] === 'number' &&
    typeof e['time'] === 'string' &&
    !Number.isNaN(Date.parse(e['time'])) &&
    typeof e['method'] === 'string' &&
    typeof e['path'] === 'string' &&
    typeof e['headers'] === 'object' &&
    e['headers'] !== null &&
    typeof e['query'] === 'object' &&
    e['query'] !== null &&
    (typeof e['status'] === 'number' || e['status'] === null) &&
    typeof e['outcome'] === 'string'
  );
}

const ENTRY_HINT = 'a journal entry (seq, time, method, path, query, headers, status, outcome)';

/**
 * A saved journal: what `csp-mock requests --json` prints (one entry a line), a JSON array of entries, or
 * the admin API's `{"requests": [...]}`. Errors name the file and the line.
 */
export async function readJournalFile(file: string): Promise<JournalEntry[]> {
  const text = (await readContainedFile(file)).toString('utf8').trim();
  if (text === '') return [];
  if (text.startsWith('[') || text.startsWith('{"requests"')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(
        `${file} is not JSON (expected the output of "csp-mock requests --json", or a JSON array of entries)`,
      );
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { requests?: unknown }).requests;
    if (!Array.isArray(list)) throw new Error(`${file}: "requests" is not an array`);
    list.forEach((e, i) => {
      if (!isEntry(e)) throw new Error(`${file}: item ${i} is not ${ENTRY_HINT}`);
    });
    return list as JournalEntry[];
  }
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(
        `${file}:${i + 1} is not JSON (expected the output of "csp-mock requests --json": one entry a line)`,
      );
    }
    if (!isEntry(parsed)) throw new Error(`${file}:${i + 1} is not ${ENTRY_HINT}`);
    return [parsed];
  });
}
