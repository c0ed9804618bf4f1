/**
 * A second-device change that could not apply (nothing changed): 404 when its path names nothing, 409
 * for any other refusal (a lock, a taken name, a quota), with the reason in words.
 */
export class ChangeRefusedError extends Error {
  override readonly name = 'ChangeRefusedError';
  readonly status: 404 | 409;
  constructor(status: 404 | 409, message: string) {
    super(message);
    this.status = status;
  }
}
