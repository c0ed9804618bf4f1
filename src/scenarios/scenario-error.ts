/** A scenario that cannot be used; the message names the file (or "inline scenario") and the field. */
export class ScenarioError extends Error {
  readonly source: string;
  readonly field: string | undefined;

  constructor(source: string, field: string | undefined, problem: string) {
    super(field ? `${source}: ${field}: ${problem}` : `${source}: ${problem}`);
    this.name = 'ScenarioError';
    this.source = source;
    this.field = field;
  }
}
