/**
 * The process's registry of secret values (an agent's env values) that no log, audit line or page may show. Kept apart
 * from the logger so that the hook process (`ralph hook`, started per tool call) can redact its audit lines without
 * loading pino: ~50 ms of start-up on every tool call.
 */

const secrets = new Set<string>();

/** Registers values that must never be written (an agent's env values); short values are ignored by the redactor. */
export function registerSecrets(values: Iterable<string | undefined>): void {
  for (const v of values) if (typeof v === 'string' && v) secrets.add(v);
}

/** The registered secret values (for redacting other sinks: the audit log, the console). */
export function knownSecrets(): ReadonlySet<string> {
  return secrets;
}
