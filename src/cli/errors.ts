/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown when command-line arguments are missing or contradict each other. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message);
  }
}

/** Thrown when a command fails in a way it has already explained in one line (exit 1, no stack). */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
  constructor(message: string) {
    super(message);
  }
}

/** Thrown when the loop received a signal but ignored it (no pending gate, wrong gate, not paused...). */
export class SignalIgnoredError extends Error {
  override readonly name = 'SignalIgnoredError';
  constructor(
    readonly loopId: string,
    readonly signal: string,
    readonly note: string,
  ) {
    super(
      `${signal} was not applied to loop "${loopId}": ${note.replace(/^ignored: /, '')}; see \`ralph status ${loopId}\``,
    );
  }
}
