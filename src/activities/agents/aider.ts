import { detectUsageLimit } from '../../core/claims';
import type { AgentAdapterImpl, AgentUsage, ParsedAgentOutput } from './types';

/**
 * Aider in scripting mode (`aider --message-file`): it does the one instruction, applies the edits and exits.
 * Flags from aider.chat/docs/scripting.html and docs/config/options.md: `--yes-always` answers every confirmation
 * (`--yes` was renamed to it), `--no-pretty` and `--no-stream` keep the transcript plain text, printed once.
 */
export const aiderAdapter: AgentAdapterImpl = {
  name: 'aider',
  defaultBinary: 'aider',
  build(inv) {
    const model = inv.spec.model ? ['--model', inv.spec.model] : [];
    return {
      file: inv.spec.binary ?? 'aider',
      // From a file, never argv: Linux caps one argument at 128 KiB.
      args: [
        '--message-file',
        inv.promptFile,
        '--yes-always',
        '--no-pretty',
        '--no-stream',
        ...model,
        ...inv.spec.args,
      ],
    };
  },
  parse(out) {
    return parseAiderTranscript(out.stdout, out.stderr, out.now);
  },
};

/** Aider's start-up banner and usage lines: not part of the answer. */
const NOISE = [
  /^Aider v\d/,
  /^(?:Main model|Model|Weak model|Editor model|Git repo|Repo-map):/,
  /^Added \S.* to the chat/,
  /^Use \/help\b/,
  /^Tokens: .* sent\b/,
  /^Cost: \$/,
];
/** Lines aider prints when the provider refuses a request (litellm's error, then aider's explanation). */
const PROVIDER_LIMIT =
  /litellm\.\w*(?:RateLimit|Quota)\w*|The API provider has rate limited you|exceeded your current quota/i;

/**
 * Reads an aider `--no-pretty` transcript: `Tokens: 2.1k sent, 1.0k cache write, 500 cache hit, 310 received.` lines
 * (summed: aider resets its counters after printing each), the last `Cost: $x message, $y session.` (session total),
 * `Applied edit to <file>` lines, and a rate limit aider gave up on. Aider prints token counts rounded (`2.1k`) and
 * counts cache writes in `sent`. Pure, never throws.
 */
export function parseAiderTranscript(stdout: string, stderr: string, now: number): ParsedAgentOutput {
  const lines = stdout.split(/\r?\n/);
  const filesTouched: string[] = [];
  const tokens = { sent: 0, received: 0, cacheWrite: 0, cacheHit: 0 };
  let sawTokens = false;
  let costUsd: number | undefined;
  let lastLimitLine = -1;
  let lastTokensLine = -1;
  lines.forEach((line, i) => {
    const edit = /^Applied edit to (.+?)\s*$/.exec(line);
    if (edit && !filesTouched.includes(edit[1])) filesTouched.push(edit[1]);
    const t = /^Tokens: (.*? received)\b/.exec(line);
    if (t) {
      sawTokens = true;
      lastTokensLine = i;
      for (const part of t[1].split(/,\s+/)) {
        const m = /^([\d.,]+)([kKmM]?)\s+(sent|received|cache write|cache hit)$/.exec(part.trim());
        if (!m) continue;
        const n = Math.round(Number(m[1].replace(/,/g, '')) * (/k/i.test(m[2]) ? 1e3 : /m/i.test(m[2]) ? 1e6 : 1));
        if (!Number.isFinite(n)) continue;
        const key = m[3] === 'cache write' ? 'cacheWrite' : m[3] === 'cache hit' ? 'cacheHit' : m[3];
        tokens[key as keyof typeof tokens] += n;
      }
    }
    const c = /Cost: \$([\d.]+) message, \$([\d.]+) session/.exec(line);
    if (c && Number.isFinite(Number(c[2]))) costUsd = Number(c[2]);
    if (PROVIDER_LIMIT.test(line)) lastLimitLine = i;
  });

  const usage: AgentUsage | undefined =
    sawTokens || costUsd !== undefined
      ? {
          inputTokens: sawTokens ? tokens.sent : undefined,
          outputTokens: sawTokens ? tokens.received : undefined,
          cacheWriteTokens: tokens.cacheWrite || undefined,
          cacheReadTokens: tokens.cacheHit || undefined,
          costUsd,
        }
      : undefined;
  // Aider retries a rate-limited request and prints a usage line once one gets through: only a limit that no later
  // success followed is one it gave up on.
  const gaveUp = lastLimitLine >= 0 && lastTokensLine < lastLimitLine;
  const limitText = gaveUp ? lines.filter((l) => PROVIDER_LIMIT.test(l)).join('\n') + '\n' + stderr : '';
  const usageLimit = gaveUp
    ? (detectUsageLimit(limitText, now) ?? { message: lines[lastLimitLine].trim().slice(0, 300) })
    : undefined;
  return {
    finalText: lines
      .filter((l) => !NOISE.some((re) => re.test(l)))
      .join('\n')
      .trim(),
    usage,
    usageLimit,
    filesTouched: filesTouched.length ? filesTouched : undefined,
  };
}
