/**
 * Secret scanner for context passed between agents: API keys, tokens, private keys, credentials in URLs and
 * `password=...` assignments. A handoff carries text from one agent's output into another's prompt (and into the
 * session file); a secret there would spread, so it is redacted or the handoff refused.
 */

/** One kind of secret and how it looks. */
interface SecretPattern {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret itself (default: the whole match). */
  group?: number;
}

/** Patterns, most specific first (a private key block before the generic assignments inside it). */
const PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private_key',
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'aws_access_key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  {
    kind: 'aws_secret_key',
    re: /\baws_?secret_?(?:access_?)?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b/gi,
    group: 1,
  },
  { kind: 'github_token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { kind: 'gitlab_token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'anthropic_key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'stripe_key', re: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'npm_token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', re: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g, group: 1 },
  { kind: 'url_credentials', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]{3,})@/gi, group: 1 },
  {
    kind: 'assigned_secret',
    re: /\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token|auth[_-]?token|token|password|passwd|pwd)\b["']?\s*[:=]\s*["']?([^\s"',;]{8,})/gi,
    group: 1,
  },
];

/** One secret found. */
export interface SecretFinding {
  kind: string;
  /** Offset and length of the secret in the scanned text. */
  index: number;
  length: number;
}

/** Result of {@link scanSecrets}. */
export interface SecretScan {
  findings: SecretFinding[];
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
  redacted: string;
}

/**
 * Finds secrets in `text` and returns them with a redacted copy. Overlapping matches keep the first (most specific)
 * pattern's. Values that are clearly placeholders (`<token>`, `${TOKEN}`, `xxxx...`, `[REDACTED...]`) are not secrets.
 */
export function scanSecrets(text: string): SecretScan {
  const spans: SecretFinding[] = [];
  for (const { kind, re, group } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const value = group ? m[group] : m[0];
      if (value === undefined || isPlaceholder(value)) continue;
      const index = m.index + (group ? m[0].indexOf(value) : 0);
      if (spans.some((s) => index < s.index + s.length && s.index < index + value.length)) continue;
      spans.push({ kind, index, length: value.length });
    }
  }
  spans.sort((a, b) => a.index - b.index);
  let redacted = '';
  let at = 0;
  for (const s of spans) {
    redacted += text.slice(at, s.index) + `[REDACTED:${s.kind}]`;
    at = s.index + s.length;
  }
  redacted += text.slice(at);
  return { findings: spans, redacted };
}

function isPlaceholder(v: string): boolean {
  return (
    /^[<{[$]/.test(v) || /^(x+|\*+|\.+|-+)$/i.test(v) || /^(changeme|redacted|example|placeholder|your[_-])/i.test(v)
  );
}
