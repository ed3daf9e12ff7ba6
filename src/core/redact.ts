/**
 * Secret redaction for everything we print, log or serve: values an operator gave us as secrets (an agent's `env`
 * values, API keys) and strings that look like API keys or bearer tokens. Pure: used by the logger, the audit log and
 * the console.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Shortest value treated as a secret: shorter ones (`1`, `true`, `dev`) would redact ordinary words. */
export const MIN_SECRET_LENGTH = 6;

/**
 * Strings that look like credentials whoever gave them: provider API keys (`sk-...`, `sk-ant-...`, `ghp_...`,
 * `xox[bp]-...`, `AKIA...`, `AIza...`), bearer tokens, and `KEY=value` / `"apiKey": "value"` pairs whose key says
 * secret, token, password or API key.
 */
const PATTERNS: RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{12,}/gi,
];

/** `NAME=value` or `"name": "value"` where the name says it holds a secret. */
const KEY_VALUE =
  /(\b[A-Za-z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|APIKEY|PRIVATE_KEY)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?)([^\s"',;&}]{4,})/gi;

/** Redacts `text`: every value in `secrets` (at least {@link MIN_SECRET_LENGTH} long), then credential look-alikes. */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  const values = [...new Set([...secrets].filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  // Longest first, so a secret containing another is replaced whole.
  values.sort((a, b) => b.length - a.length);
  for (const v of values) out = out.split(v).join(REDACTED);
  for (const p of PATTERNS)
    out = out.replace(p, (_m: string, prefix?: string) =>
      typeof prefix === 'string' && /^Bearer/i.test(prefix) ? `${prefix}${REDACTED}` : REDACTED,
    );
  out = out.replace(KEY_VALUE, (_m, key: string) => `${key}${REDACTED}`);
  return out;
}

/** A deep copy of a JSON-like value with every string redacted (object keys kept). */
export function redactValue<T>(value: T, secrets: Iterable<string> = []): T {
  const list = [...secrets];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
