/**
 * Defensive readers for the JSON that agent CLIs print: every value is checked before use, so output of any shape
 * (a run killed mid-line, another version's fields) reads as "absent" instead of throwing.
 */

/** A parsed JSON object whose fields are not checked yet. */
export type Json = Record<string, unknown>;

/** Tells whether a value is a JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns the value when it is a JSON object, else undefined. */
export const asObj = (v: unknown): Json | undefined => (isObj(v) ? v : undefined);

/** Returns the value when it is a string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Returns the value when it is a finite number, else undefined. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Parses one line of a JSON-lines stream as an object; undefined for a blank line, text, a cut line or a non-object. */
export function parseJsonObject(line: string): Json | undefined {
  const t = line.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
