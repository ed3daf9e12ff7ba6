/** Thrown when no Temporal server answers at the configured address. */
export class NoServerError extends Error {
  override readonly name = 'NoServerError';
  constructor(
    readonly address: string,
    override readonly cause?: unknown,
  ) {
    super(`no Temporal server at ${address}: start one with \`ralph dev\` (or set --address / TEMPORAL_ADDRESS)`);
  }
}

/** Thrown when a loop id names no workflow. */
export class LoopNotFoundError extends Error {
  override readonly name = 'LoopNotFoundError';
  constructor(
    readonly loopId: string,
    readonly namespace: string,
  ) {
    super(`no loop with id "${loopId}" in namespace ${namespace}: list loops with \`ralph list\``);
  }
}

/** Thrown when a signal is sent to a loop that already ended. */
export class LoopFinishedError extends Error {
  override readonly name = 'LoopFinishedError';
  constructor(
    readonly loopId: string,
    readonly signal: string,
    readonly closedStatus: string,
  ) {
    super(`loop "${loopId}" already ended (${closedStatus}): nothing to ${signal}; see \`ralph status ${loopId}\``);
  }
}

/** Thrown when a loop's input or a config file is invalid. */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  constructor(message: string) {
    super(message);
  }
}
