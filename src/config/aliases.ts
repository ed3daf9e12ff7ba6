/**
 * Old names the configuration still accepts. `persistence:` is the anti-laziness layer's old name: `antiLaziness:` is
 * read as it, `persistence:` still works and `ralph config check` says it is deprecated. (Inside, and in workflow
 * histories and the status query, the field keeps the name `persistence`, so running loops and recorded histories
 * read as before.)
 */
import { InvalidInputError } from './errors';

/** What {@link withAntiLazinessAlias} made of an input or config object. */
export interface AliasResult {
  /** The object with `antiLaziness` moved to `persistence` (the same object when there was nothing to move). */
  value: unknown;
  /** The object used the deprecated `persistence` key. */
  deprecated: boolean;
}

/** Reads `antiLaziness` as the anti-laziness settings; both keys at once is an error naming the fix. */
export function withAntiLazinessAlias(raw: unknown, where = 'input'): AliasResult {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { value: raw, deprecated: false };
  const o = raw as Record<string, unknown>;
  if (o.antiLaziness === undefined) return { value: raw, deprecated: o.persistence !== undefined };
  if (o.persistence !== undefined)
    throw new InvalidInputError(
      `${where}: both antiLaziness and persistence are set: keep antiLaziness (persistence is its deprecated old name)`,
    );
  const { antiLaziness, ...rest } = o;
  return { value: { ...rest, persistence: antiLaziness }, deprecated: false };
}

/** The line `ralph config check` prints for a config that still uses the old key. */
export const PERSISTENCE_DEPRECATED =
  '`persistence:` is deprecated: rename it `antiLaziness:` (same settings; the old name keeps working for now)';
