/**
 * `${NAME}` references in `agent.env`: a value that is exactly `${NAME}` is read from the worker's environment when
 * the agent starts, so a secret (an API key) can be handed to one loop's agent without ever being written into the
 * loop's input, which Temporal keeps in the workflow history. Pure: the environment is passed in.
 */
import { MissingEnvRefError } from './errors';

/** A value that is a whole `${NAME}` reference. */
const REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

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
export { MissingEnvRefError };
