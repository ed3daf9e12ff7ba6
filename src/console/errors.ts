/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown when the console would be exposed beyond this machine without a token chosen by the operator. */
export class ConsoleConfigError extends Error {
  override readonly name = 'ConsoleConfigError';
  constructor(message: string) {
    super(message);
  }
}

/** Thrown (to the page) when an action is refused because Temporal is unreachable. */
export class TemporalUnreachableError extends Error {
  override readonly name = 'TemporalUnreachableError';
}
