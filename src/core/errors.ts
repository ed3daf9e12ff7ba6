/** The error classes of this layer, one place (the architecture test holds it). */

/** Thrown when an `agent.env` value refers to a variable the worker's environment does not set. */
export class MissingEnvRefError extends Error {
  override readonly name = 'MissingEnvRefError';
  constructor(
    readonly key: string,
    readonly ref: string,
  ) {
    super(`agent.env.${key} refers to \${${ref}}, which the worker's environment does not set: set ${ref} there`);
  }
}
