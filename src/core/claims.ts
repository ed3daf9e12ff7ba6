/**
 * Pure readers of agent text: completion claims, claimed files, usage-limit answers.
 * Deterministic and I/O-free: used by activities, unit-tested without a server.
 */

/** How the agent claimed completion. */
export type ClaimKind = 'promise' | 'exit_signal';

/** Result of {@link detectCompletionClaim}. */
export interface CompletionClaim {
  claimed: boolean;
  via?: ClaimKind;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Detects a completion claim: `<promise>TEXT</promise>` with the configured text, or `EXIT_SIGNAL: true`
 * (the ralph-claude-code status block). A claim only triggers verification; it never decides completion.
 */
export function detectCompletionClaim(text: string, promise?: string): CompletionClaim {
  if (promise) {
    const re = new RegExp(`<promise>\\s*${escapeRe(promise.trim())}\\s*</promise>`, 'i');
    if (re.test(text)) return { claimed: true, via: 'promise' };
  }
  if (/^\s*\**EXIT_SIGNAL\**\s*[:=]\s*\**true\b/im.test(text)) return { claimed: true, via: 'exit_signal' };
  return { claimed: false };
}

/**
 * Files the agent says it created or modified: `FILES_CHANGED: a, b`/`FILES_MODIFIED:` lines and bullet paths under an
 * `Evidence` heading. Returns unique workspace-relative paths in order of appearance.
 */
export function parseClaimedFiles(text: string): string[] {
  const out: string[] = [];
  const add = (p: string): void => {
    const clean = p
      .trim()
      .replace(/^[`'"]+|[`'",.;:]+$/g, '')
      .replace(/^\.\//, '');
    if (clean && !/\s/.test(clean) && /[./]/.test(clean) && !out.includes(clean)) out.push(clean);
  };
  for (const m of text.matchAll(/^\s*(?:FILES_(?:CHANGED|MODIFIED|CREATED)|files[ _]changed)\s*:\s*(.+)$/gim)) {
    for (const part of m[1].split(/[,\s]+/)) add(part);
  }
  const lines = text.split(/\r?\n/);
  let inEvidence = false;
  for (const line of lines) {
    if (/^\s*#{1,6}\s*evidence\b/i.test(line) || /^\s*\**evidence\**\s*:?\s*$/i.test(line)) {
      inEvidence = true;
      continue;
    }
    if (inEvidence) {
      if (/^\s*#{1,6}\s/.test(line)) {
        inEvidence = false;
        continue;
      }
      const bullet = /^\s*[-*]\s+(?:(?:created|modified|updated|added|edited|wrote)\s*:?\s*)?`?([^\s`]+)`?/i.exec(line);
      if (bullet) add(bullet[1]);
    }
  }
  return out;
}

/** A usage/rate-limit answer and when the limit resets (epoch ms), if the text says. */
export interface UsageLimit {
  message: string;
  resetAt?: number;
}

const LIMIT_PATTERNS = [
  /usage limit (?:reached|exceeded)/i,
  /(?:5|five)-hour limit reached/i,
  /rate limit(?:ed| reached| exceeded)/i,
  /you(?:'ve| have) (?:hit|reached) your (?:usage )?limit/i,
  /quota (?:exceeded|exhausted)/i,
  /RESOURCE_EXHAUSTED/,
  /429 Too Many Requests/i,
];

/**
 * Recognises a usage/rate-limit answer and its reset time. Understands `...|<epoch seconds>` (Claude Code's
 * `Claude AI usage limit reached|1735689600`), `resets at <ISO time>`, `resets at 3pm`/`3:30 PM` (next such time after
 * `now`, UTC unless the text has an offset), and `try again in N seconds|minutes|hours`.
 */
export function detectUsageLimit(text: string, now: number): UsageLimit | undefined {
  const line = text.split(/\r?\n/).find((l) => LIMIT_PATTERNS.some((p) => p.test(l)));
  if (!line) return undefined;
  const message = line.trim().slice(0, 300);
  const epoch = /\|\s*(\d{10,13})\b/.exec(line);
  if (epoch) {
    const n = Number(epoch[1]);
    return { message, resetAt: n < 1e12 ? n * 1000 : n };
  }
  const iso = /reset[s]?\s+(?:at\s+)?(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)/i.exec(text);
  if (iso) {
    const t = Date.parse(iso[1]);
    if (!Number.isNaN(t)) return { message, resetAt: t };
  }
  const rel = /(?:try again|retry|resets?)\s+in\s+(\d+(?:\.\d+)?)\s*(s|sec|second|m|min|minute|h|hr|hour)s?\b/i.exec(
    text,
  );
  if (rel) {
    const unit = rel[2].toLowerCase()[0];
    const ms = Number(rel[1]) * (unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
    return { message, resetAt: now + ms };
  }
  const clock = /resets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?/i.exec(text);
  if (clock) {
    let h = Number(clock[1]) % 24;
    const m = Number(clock[2] ?? 0);
    const ampm = clock[3]?.toLowerCase();
    if (ampm === 'pm' && h < 12) h += 12;
    if (ampm === 'am' && h === 12) h = 0;
    const d = new Date(now);
    let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), h, m);
    if (t <= now) t += 24 * 3_600_000;
    return { message, resetAt: t };
  }
  return { message };
}

/** Last `maxChars` characters of text, cut at a line start when possible, for feedback and status. */
export function tail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(text.length - maxChars);
  const nl = cut.indexOf('\n');
  return '…' + (nl >= 0 && nl < maxChars / 2 ? cut.slice(nl + 1) : cut);
}
