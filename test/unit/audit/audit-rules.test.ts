// The audit's rules on synthetic journals: every time-based threshold is tested here, where the clock is
// written down, not measured.
import { describe, expect, it } from 'vitest';
import { auditJournal } from '../../../src/audit/audit.js';
import { auditFails, auditText } from '../../../src/audit/audit-text.js';
import type { AuditOptions } from '../../../src/audit/audit-types.js';
import type { JournalEntry } from '../../../src/http/journal.js';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');

type Made = Partial<Omit<JournalEntry, 'time'>> & { at: number; committed?: boolean };

/** A journal from short descriptions: `at` is ms after T0; seq follows the order given. */
function journal(...made: Made[]): JournalEntry[] {
  return made.map(({ at, ...fields }, i) => ({
    seq: i + 1,
    time: new Date(T0 + at).toISOString(),
    mockTime: new Date(T0 + at).toISOString(),
    delayMs: null,
    method: 'GET',
    path: '/v2/tags',
    query: {},
    headers: {},
    user: 'demo',
    status: 200,
    outcome: 'answered',
    durationMs: 5,
    fault: null,
    scenario: 'default',
    network: null,
    replay: null,
    ...fields,
  }));
}

const rulesOf = (entries: JournalEntry[], options: AuditOptions = {}) =>
  auditJournal(entries, options).findings.map((f) => [f.rule, f.severity, f.requests.map((r) => r.seq)]);

describe('retry-without-backoff and retry-after-ignored', () => {
  it('a failed request retried sooner than the backoff floor is a warning naming both requests', () => {
    const report = auditJournal(journal({ at: 0, status: 500 }, { at: 20 }));
    expect(report.findings).toEqual([
      expect.objectContaining({
        rule: 'retry-without-backoff',
        severity: 'warning',
        message: expect.stringMatching(
          /^GET \/v2\/tags was retried 15 ms after a 500, sooner than the 500 ms backoff floor/,
        ),
      }),
    ]);
    expect(report.findings[0]!.requests.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('a retry after the floor, a retry of a success, and a different resource are not findings', () => {
    expect(rulesOf(journal({ at: 0, status: 500 }, { at: 600 }))).toEqual([]);
    expect(rulesOf(journal({ at: 0 }, { at: 10 }))).toEqual([]);
    expect(rulesOf(journal({ at: 0, status: 500 }, { at: 10, path: '/v2/account' }))).toEqual([]);
  });

  it("resets, cut answers and the client's own aborts count as failures; a run of quick retries is one finding", () => {
    const entries = journal(
      { at: 0, status: null, outcome: 'reset' },
      { at: 10, status: 200, outcome: 'truncated' },
      { at: 20, status: null, outcome: 'aborted' },
      { at: 30 },
    );
    expect(rulesOf(entries)).toEqual([['retry-without-backoff', 'warning', [1, 2, 3, 4]]]);
    expect(auditJournal(entries).findings[0]!.message).toContain('(3 retries in a row, each too soon)');
  });

  it('the floor is an option; query parameters other than paging and filtering do not make another request', () => {
    const entries = journal({ at: 0, status: 503, query: { nocache: '1' } }, { at: 300, query: { nocache: '2' } });
    expect(rulesOf(entries)).toEqual([['retry-without-backoff', 'warning', [1, 2]]]);
    expect(rulesOf(entries, { minBackoffMs: 200 })).toEqual([]);
    expect(rulesOf(journal({ at: 0, status: 503, query: { start: '0' } }, { at: 1, query: { start: '50' } }))).toEqual(
      [],
    );
  });

  it("times are the mock's clock (mockTime): a retry a second on by a frozen clock advanced is not too soon, one at once is", () => {
    // The host's time says the opposite of the mock's clock in both journals: the mock's clock decides.
    const onMockClock = (mockGapMs: number, hostGapMs: number): JournalEntry[] => {
      const [failure, retry] = journal({ at: 0, status: 500 }, { at: mockGapMs });
      retry!.time = new Date(T0 + hostGapMs).toISOString();
      return [failure!, retry!];
    };
    expect(rulesOf(onMockClock(1000, 0))).toEqual([]);
    expect(rulesOf(onMockClock(0, 1000))).toEqual([['retry-without-backoff', 'warning', [1, 2]]]);
    // A saved journal without mockTime: the host's time.
    const saved = journal({ at: 0, status: 500 }, { at: 20 }).map(({ mockTime: _, ...e }) => e as JournalEntry);
    expect(rulesOf(saved)).toEqual([['retry-without-backoff', 'warning', [1, 2]]]);
  });

  it('a retry sooner than Retry-After asked is an error (and not also a backoff warning)', () => {
    const report = auditJournal(journal({ at: 0, status: 503, retryAfter: '2', durationMs: 10 }, { at: 1010 }));
    expect(report.findings.map((f) => [f.rule, f.severity])).toEqual([['retry-after-ignored', 'error']]);
    expect(report.findings[0]!.message).toMatch(
      /^GET \/v2\/tags was retried 1 s after a 503 whose Retry-After: 2 asked for 2 s: wait as long as the service asks$/,
    );
  });

  it('a retry that waited what Retry-After asked is fine, even sooner than the floor would say; an HTTP date works too', () => {
    expect(rulesOf(journal({ at: 0, status: 429, retryAfter: '0', durationMs: 1 }, { at: 2 }))).toEqual([]);
    expect(rulesOf(journal({ at: 0, status: 503, retryAfter: '1', durationMs: 10 }, { at: 1005 }))).toEqual([]);
    const date = new Date(T0 + 3000).toUTCString();
    expect(rulesOf(journal({ at: 0, status: 503, retryAfter: date }, { at: 1000 }))).toEqual([
      ['retry-after-ignored', 'error', [1, 2]],
    ]);
    expect(rulesOf(journal({ at: 0, status: 503, retryAfter: date }, { at: 3000 }))).toEqual([]);
  });
});

describe('duplicate-after-ambiguous-commit', () => {
  const upload = {
    method: 'POST',
    path: '/v2/containers/c1/contents',
    headers: { 'content-type': 'multipart/form-data; boundary=a', 'content-length': '300' },
  };

  it('a committed POST the client saw fail, sent again and created again, is an error', () => {
    const report = auditJournal(
      journal(
        { ...upload, at: 0, status: null, outcome: 'reset', committed: true },
        { ...upload, at: 900, status: 201 },
      ),
    );
    expect(report.findings.map((f) => [f.rule, f.severity, f.requests.map((r) => r.seq)])).toEqual([
      ['duplicate-after-ambiguous-commit', 'error', [1, 2]],
    ]);
    expect(report.findings[0]!.message).toMatch(
      /^POST \/v2\/containers\/c1\/contents was committed, but the client saw a connection reset and sent it again \(#2, 201\): a duplicate was created/,
    );
  });

  it('a blind repeat the service refused is an error too; an uncommitted failure, another body or a look first are not', () => {
    const refused = journal({ ...upload, at: 0, status: 500, committed: true }, { ...upload, at: 900, status: 422 });
    expect(auditJournal(refused).findings[0]!.message).toContain('(#2, 422): the service refused the repeat');
    expect(
      rulesOf(journal({ ...upload, at: 0, status: 500, committed: false }, { ...upload, at: 900, status: 201 })),
    ).toEqual([]);
    const other = { ...upload, headers: { ...upload.headers, 'content-length': '301' } };
    expect(
      rulesOf(journal({ ...upload, at: 0, status: 500, committed: true }, { ...other, at: 900, status: 201 })),
    ).toEqual([]);
    expect(
      rulesOf(
        journal(
          { method: 'PUT', path: '/v2/files/f1/content', at: 0, status: 500, committed: true },
          { method: 'PUT', path: '/v2/files/f1/content', at: 900 },
        ),
      ),
    ).toEqual([]);
  });
});

describe('full-reupload', () => {
  const block = (at: number, from: number, fields: Partial<Made> = {}): Made => ({
    at,
    method: 'PUT',
    path: '/v2/files/f1/content',
    status: 204,
    headers: { 'content-range': `bytes ${from}-${from + 99}/*`, 'content-length': '100' },
    ...fields,
  });

  it('blocks stored, one failed, then the whole upload again from byte 0: a warning saying where to resume', () => {
    const report = auditJournal(
      journal(block(0, 0), block(1000, 100), block(2000, 200, { status: 500 }), block(3000, 0), block(4000, 100)),
    );
    expect(report.findings.map((f) => [f.rule, f.requests.map((r) => r.seq)])).toEqual([
      ['full-reupload', [1, 2, 3, 4]],
    ]);
    expect(report.findings[0]!.message).toMatch(
      /started over at byte 0 after a 500, though bytes 0-199 were stored: resume with Content-Range: bytes 200-/,
    );
  });

  it('a resume where the stored bytes end, a new upload after a finished one, and a whole-body retry are fine', () => {
    expect(rulesOf(journal(block(0, 0), block(1000, 100, { status: 500 }), block(2000, 100)))).toEqual([]);
    expect(rulesOf(journal(block(0, 0), block(1000, 100), block(2000, 0)))).toEqual([]);
    const whole = { method: 'PUT', path: '/v2/files/f1/content', headers: { 'content-length': '5000' } };
    expect(
      rulesOf(journal({ ...whole, at: 0, status: null, outcome: 'reset' }, { ...whole, at: 1000, status: 204 })),
    ).toEqual([]);
  });

  it('a block committed before its answer failed counts as stored', () => {
    const entries = journal(
      block(0, 0),
      block(1000, 100, { status: null, outcome: 'reset', committed: true }),
      block(2000, 0),
    );
    expect(auditJournal(entries).findings[0]!.message).toContain('though bytes 0-199 were stored');
  });
});

describe('etag-not-revalidated', () => {
  const read = (at: number, fields: Partial<JournalEntry> = {}): Made => ({
    at,
    path: '/v2/files/f1',
    etag: '"v1"',
    ...fields,
  });

  it('three full reads of one entity with an ETag, never conditional: a warning', () => {
    const report = auditJournal(journal(read(0), read(2000), read(4000)));
    expect(report.findings.map((f) => [f.rule, f.requests.map((r) => r.seq)])).toEqual([
      ['etag-not-revalidated', [1, 2, 3]],
    ]);
    expect(report.findings[0]!.message).toBe(
      'GET /v2/files/f1 was read 3 times in full, the same ETag "v1" each time, never with If-None-Match: send the ETag back and take the 304',
    );
  });

  it('one conditional read, fewer reads than the threshold, or answers without an ETag are fine', () => {
    expect(
      rulesOf(journal(read(0), read(2000, { headers: { 'if-none-match': '"v1"' }, status: 304 }), read(4000))),
    ).toEqual([]);
    expect(rulesOf(journal(read(0), read(2000)))).toEqual([]);
    expect(rulesOf(journal(read(0), read(2000), read(4000)), { revalidateAfter: 4 })).toEqual([]);
    expect(
      rulesOf(journal(read(0, { etag: undefined }), read(2000, { etag: undefined }), read(4000, { etag: undefined }))),
    ).toEqual([]);
  });
});

describe('n-plus-one-listing', () => {
  const listing: Made = { at: 0, path: '/v2/containers/c1/contents' };
  const child = (i: number, parent = 'c1'): Made => ({ at: 2000 * (i + 1), path: `/v2/files/f${i}`, parent });

  it('a listing, then one GET per listed child: a warning with the listing and the reads', () => {
    const report = auditJournal(journal(listing, ...[0, 1, 2, 3, 4].map((i) => child(i))));
    expect(report.findings.map((f) => [f.rule, f.requests.map((r) => r.seq)])).toEqual([
      ['n-plus-one-listing', [1, 2, 3, 4, 5, 6]],
    ]);
    expect(report.findings[0]!.message).toBe(
      'after listing /v2/containers/c1/contents (#1), the client read 5 of its children one request each: ask the listing for them (X-Cloud-Depth: 1)',
    );
  });

  it('fewer children, children of another container, a new listing between, or the same child again are not counted', () => {
    expect(rulesOf(journal(listing, ...[0, 1, 2, 3].map((i) => child(i))))).toEqual([]);
    expect(rulesOf(journal(listing, ...[0, 1, 2, 3, 4].map((i) => child(i, 'c2'))))).toEqual([]);
    expect(
      rulesOf(journal(listing, child(0), child(1), child(2), { ...listing, at: 7000 }, child(3), child(4))),
    ).toEqual([]);
    const again = [1, 2, 3, 4, 5].map((k) => ({ ...child(0), at: 2000 * k }));
    expect(rulesOf(journal(listing, ...again))).toEqual([]);
  });

  it('WebDAV: a Depth 1 PROPFIND, then a Depth 0 PROPFIND of each member', () => {
    const members = [0, 1, 2, 3, 4, 5].map(
      (i): Made => ({
        at: 100 * (i + 1),
        method: 'PROPFIND',
        path: `/dav/Documents/f${i}.txt`,
        status: 207,
        headers: { depth: '0' },
      }),
    );
    const entries = journal(
      { at: 0, method: 'PROPFIND', path: '/dav/Documents/', status: 207, headers: { depth: '1' } },
      ...members,
    );
    expect(rulesOf(entries)).toEqual([['n-plus-one-listing', 'warning', [1, 2, 3, 4, 5, 6, 7]]]);
  });
});

describe('polling-too-fast', () => {
  it('five reads in a row, each sooner than the stated interval: a warning with the median interval', () => {
    const report = auditJournal(
      journal(...[0, 100, 200, 300, 400].map((at) => ({ at, path: '/v2/containers/c1/contents' }))),
    );
    expect(report.findings.map((f) => [f.rule, f.requests.length])).toEqual([['polling-too-fast', 5]]);
    expect(report.findings[0]!.message).toBe(
      'GET /v2/containers/c1/contents was read 5 times in a row about every 100 ms, faster than once every 1 s: poll at the stated rate, or follow the change feed',
    );
  });

  it('reads at the stated rate, a shorter run, or a run broken by a failure are fine; the rate is an option', () => {
    expect(rulesOf(journal(...[0, 1000, 2000, 3000, 4000].map((at) => ({ at }))))).toEqual([]);
    expect(rulesOf(journal(...[0, 100, 200, 300].map((at) => ({ at }))))).toEqual([]);
    expect(
      rulesOf(journal({ at: 0 }, { at: 100 }, { at: 200, status: 503, retryAfter: '0' }, { at: 300 }, { at: 400 })),
    ).toEqual([]);
    expect(rulesOf(journal(...[0, 100, 200, 300, 400].map((at) => ({ at }))), { minPollIntervalMs: 100 })).toEqual([]);
  });
});

describe('the report', () => {
  const entries = journal(
    { at: 0, status: 503, retryAfter: '5' },
    { at: 10 },
    { at: 20, status: 500, path: '/v2/account' },
    { at: 30, path: '/v2/account' },
  );

  it('counts errors and warnings, runs only the rules asked for, and refuses unknown rules and bad thresholds', () => {
    const report = auditJournal(entries);
    expect([report.audited, report.errors, report.warnings]).toEqual([4, 1, 1]);
    expect(auditJournal(entries, { rules: ['retry-without-backoff'] }).findings.map((f) => f.rule)).toEqual([
      'retry-without-backoff',
    ]);
    expect(() => auditJournal(entries, { rules: ['no-such-rule' as never] })).toThrow(
      /unknown audit rule "no-such-rule" \(rules: retry-without-backoff, /,
    );
    expect(() => auditJournal(entries, { minBackoffMs: -1 })).toThrow(
      'audit option minBackoffMs must be a number of 0 or more, got -1',
    );
  });

  it('reads as text, one block per finding with its requests', () => {
    const text = auditText(auditJournal(entries));
    expect(text.split('\n').slice(0, 5)).toEqual([
      '2 findings (1 error, 1 warning) in 4 requests',
      '',
      expect.stringMatching(/^error retry-after-ignored: GET \/v2\/tags was retried /),
      '  #1 10:00:00.000 GET /v2/tags 503',
      '  #2 10:00:00.010 GET /v2/tags 200',
    ]);
    expect(auditText(auditJournal([]))).toBe('no findings in 0 requests (7 rules)\n');
  });

  it('fails the CI gate at the chosen severity or past --max-findings', () => {
    const report = auditJournal(entries);
    expect(auditFails(report, {})).toBe('1 error at --fail-on error');
    expect(auditFails(report, { failOn: 'warning' })).toBe('2 findings at --fail-on warning');
    expect(auditFails(report, { failOn: 'none' })).toBeUndefined();
    expect(auditFails(report, { failOn: 'none', maxFindings: 1 })).toBe('2 findings, more than --max-findings 1');
    expect(auditFails(report, { failOn: 'none', maxFindings: 2 })).toBeUndefined();
  });
});
