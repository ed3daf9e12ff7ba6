/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown when the dev server can't be started or doesn't come up. */
export class DevServerError extends Error {
  override readonly name = 'DevServerError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
