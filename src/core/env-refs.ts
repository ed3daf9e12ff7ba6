/**
 * `${NAME}` references in `agent.env`: a value that is exactly `${NAME}` is read from the worker's environment when
 * the agent starts, so a secret (an API key) can be handed to one loop's agent without ever being written into the
 * loop's input, which Temporal keeps in the workflow history. Pure: the environment is passed in.
 */

/** A value that is a whole `${NAME}` reference. */
const REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

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

/** Returns `env` with every `${NAME}` value replaced by `from[NAME]`; throws {@link MissingEnvRefError} if unset. */
export function resolveEnvRefs(
  env: Readonly<Record<string, string>>,
  from: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const ref = REF.exec(value)?.[1];
    if (ref === undefined) out[key] = value;
    else if (from[ref] !== undefined) out[key] = from[ref] as string;
    else throw new MissingEnvRefError(key, ref);
  }
  return out;
}
