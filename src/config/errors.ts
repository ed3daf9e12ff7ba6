/**
 * The config layer's errors: invalid input (loop, project, config file, PRD), each message naming the file or field
 * and what is wrong. Compared by `name` elsewhere (`instanceof` breaks across module registries).
 */

/** Thrown when a loop's or project's input is invalid: the message lists every bad field. */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  constructor(message: string) {
    super(message);
  }
}

/** Thrown when a config file can't be read or doesn't match the schema; the message names the file and each bad path. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.join('; ')}`);
  }
}

export interface PrdProblem {
  line?: number;
  path?: string;
  message: string;
}

/** Thrown when a PRD can't be read or is invalid; the message names the file and each problem's line and/or path. */
export class PrdError extends Error {
  override readonly name = 'PrdError';
  constructor(
    readonly file: string,
    readonly problems: readonly PrdProblem[],
    options?: { cause?: unknown },
  ) {
    super(problems.map((p) => formatProblem(file, p)).join('; '), options);
  }
}

/** Thrown when a task id names no task of the PRD. */
export class UnknownPrdTaskError extends Error {
  override readonly name = 'UnknownPrdTaskError';
  constructor(
    readonly taskId: string,
    readonly knownIds: readonly string[],
    readonly file?: string,
  ) {
    const known = knownIds.slice(0, 10).join(', ') + (knownIds.length > 10 ? ', ...' : '');
    super(`${file ? `${file}: ` : ''}no task "${taskId}" (the PRD has ${known || 'no tasks'})`);
  }
}

/** Thrown when {@link markTaskDone} is given text that isn't the text the PRD was parsed from. */
export class StalePrdError extends Error {
  override readonly name = 'StalePrdError';
  constructor(
    readonly taskId: string,
    readonly details: string,
  ) {
    super(`the PRD changed since it was parsed (${details}): parse it again before recording "${taskId}"`);
  }
}

const formatProblem = (file: string, p: PrdProblem): string =>
  `${file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.path ? `${p.path}: ` : ''}${p.message}`;

/** A syntax error at `offset`, saying what was expected and what was found. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}
