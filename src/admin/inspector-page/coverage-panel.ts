import { byId, h, replace } from './dom.js';

/** A row of explore's coverage map (src/explore/coverage.ts), as a report or a repro file holds it. */
interface CoverageRow {
  shape: string;
  met: number;
  then: Record<string, number>;
}

/** Larger than any repro file explore reads back (src/explore/repro-bundle.ts). */
const MAX_BYTES = 16 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The coverage rows of a report (`csp-mock explore --json`) or a repro file; throws saying what is wrong. */
function coverageOf(value: unknown): { rows: CoverageRow[]; about: string } {
  if (!isObject(value) || !Array.isArray(value['coverage']))
    throw new Error('not an explore report or repro file: it has no "coverage" list');
  const rows = value['coverage'].map((row: unknown, i): CoverageRow => {
    if (
      !isObject(row) ||
      typeof row['shape'] !== 'string' ||
      !isCount(row['met']) ||
      !isObject(row['then']) ||
      !Object.values(row['then']).every(isCount)
    )
      throw new Error(`coverage[${i}] is not a row: {"shape": text, "met": count, "then": {reaction: count}}`);
    return row as unknown as CoverageRow;
  });
  const failure = isObject(value['failure']) ? value['failure'] : isObject(value['finding']) ? value : undefined;
  const kind = failure && (isObject(failure['finding']) ? failure['finding']['kind'] : failure['kind']);
  const runs = isCount(value['runs']) ? `${value['runs']} runs` : `run ${String(value['run'])}`;
  const seed = isCount(value['seed']) ? ` from seed ${value['seed']}` : '';
  return { rows, about: `${runs}${seed}${typeof kind === 'string' ? `, found ${kind}` : ', nothing found'}` };
}

/** The "Explore coverage" panel: a report or repro file the user picks, read in the page (nothing is sent). */
export class CoveragePanel {
  readonly #status = byId('coverage-status');
  readonly #table = byId<HTMLTableElement>('coverage-table');

  constructor() {
    const input = byId<HTMLInputElement>('coverage-file');
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (file) void this.#open(file);
    });
  }

  async #open(file: File): Promise<void> {
    try {
      if (file.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
      const { rows, about } = coverageOf(JSON.parse(await file.text()));
      this.#status.textContent = `${file.name}: ${about}; ${rows.length} failure shape${rows.length === 1 ? '' : 's'} met`;
      const body = this.#table.tBodies[0]!;
      replace(
        body,
        ...rows.map((row) =>
          h(
            'tr',
            {},
            h('td', {}, row.shape),
            h('td', { class: 'num' }, row.met),
            h(
              'td',
              {},
              Object.entries(row.then)
                .map(([what, n]) => `${what} ${n}`)
                .join(', '),
            ),
          ),
        ),
      );
      this.#table.hidden = rows.length === 0;
    } catch (err) {
      this.#status.textContent = `${file.name}: ${err instanceof Error ? err.message : String(err)}`;
      this.#table.hidden = true;
    }
  }
}
