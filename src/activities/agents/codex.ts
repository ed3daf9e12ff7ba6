import { detectUsageLimit } from '../../core/claims';
import { isObj, num, parseJsonObject, str } from './json';
import type { AgentAdapterImpl, AgentUsage, ParsedAgentOutput } from './types';

/**
 * OpenAI Codex CLI in non-interactive mode (`codex exec`), printing its events as JSON lines.
 * Flags from developers.openai.com/codex/noninteractive and codex-rs/exec/src/cli.rs: `--json` streams
 * `thread.*`/`turn.*`/`item.*` events; `--sandbox workspace-write` lets it edit the workspace (exec is read-only by
 * default, and the old `--full-auto` is deprecated in its favour); `--skip-git-repo-check` because the loop keeps its
 * own checkpoints and a workspace need not be a git repository. The prompt is read from stdin (the `-` positional
 * argument), so `agent.args` go before it.
 */
export const codexAdapter: AgentAdapterImpl = {
  name: 'codex',
  defaultBinary: 'codex',
  build(inv) {
    const model = inv.spec.model ? ['--model', inv.spec.model] : [];
    return {
      file: inv.spec.binary ?? 'codex',
      args: [
        'exec',
        '--json',
        '--sandbox',
        'workspace-write',
        '--skip-git-repo-check',
        ...model,
        ...inv.spec.args,
        // `-` reads the prompt from stdin: never argv, which Linux caps at 128 KiB per argument.
        '-',
      ],
      input: inv.prompt,
    };
  },
  parse(out) {
    return parseCodexEvents(out.stdout, out.stderr, out.exitCode, out.now);
  },
};

/**
 * Reads a `codex exec --json` event stream: the last `agent_message` is the answer, the last `turn.completed` carries
 * the usage, completed `file_change` items name the files written, and a failed turn's error may be a usage limit.
 * Usage follows Claude's convention: `inputTokens` excludes the cached input that Codex counts in `input_tokens`.
 * Lines that are not whole JSON objects are skipped; it never throws.
 */
export function parseCodexEvents(
  stdout: string,
  stderr: string,
  exitCode: number | null,
  now: number,
): ParsedAgentOutput {
  let finalText: string | undefined;
  let usage: AgentUsage | undefined;
  let sessionId: string | undefined;
  let turnCompleted = false;
  let turnFailed = false;
  // Codex also reports errors it recovers from (stream retries, "Reconnecting... 1/5"): only the failed turn's error,
  // and errors nothing came after, are why a run stopped.
  const fatal: string[] = [];
  let trailing: string[] = [];
  const filesTouched: string[] = [];
  const other: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const ev = parseJsonObject(line);
    if (!ev) {
      if (line.trim()) other.push(line);
      continue;
    }
    if (ev.type !== 'error') trailing = [];
    switch (ev.type) {
      case 'thread.started':
        sessionId = str(ev.thread_id) ?? sessionId;
        break;
      case 'turn.completed':
        turnCompleted = true;
        // The usage of a turn is the thread's running total: keep the last one, don't add them up.
        usage = readUsage(ev.usage) ?? usage;
        break;
      case 'turn.failed':
        turnFailed = true;
        if (isObj(ev.error) && typeof ev.error.message === 'string') fatal.push(ev.error.message);
        break;
      case 'error':
        if (typeof ev.message === 'string') trailing.push(ev.message);
        break;
      case 'item.completed': {
        const item = isObj(ev.item) ? ev.item : {};
        if (item.type === 'agent_message' && typeof item.text === 'string') finalText = item.text;
        if (item.type === 'file_change' && item.status !== 'failed' && Array.isArray(item.changes)) {
          for (const c of item.changes) {
            const file = isObj(c) ? str(c.path) : undefined;
            if (file && !filesTouched.includes(file)) filesTouched.push(file);
          }
        }
        break;
      }
    }
  }
  const failed = turnFailed || (!turnCompleted && exitCode !== 0);
  const errorText = [...new Set([...fatal, ...trailing])].join('\n');
  const limitText = failed ? [errorText, exitCode !== 0 ? stderr : ''].filter(Boolean).join('\n') : '';
  return {
    finalText: finalText ?? (failed && errorText ? errorText : other.join('\n')),
    usage,
    usageLimit: detectUsageLimit(limitText, now) ?? codexUsageLimit(limitText, now),
    filesTouched: filesTouched.length ? filesTouched : undefined,
    sessionId,
    isError: turnFailed ? true : turnCompleted ? false : undefined,
  };
}

function readUsage(u: unknown): AgentUsage | undefined {
  if (!isObj(u)) return undefined;
  const input = num(u.input_tokens);
  const cached = num(u.cached_input_tokens);
  const usage: AgentUsage = {
    inputTokens: input !== undefined ? Math.max(0, input - (cached ?? 0)) : undefined,
    outputTokens: num(u.output_tokens),
    cacheReadTokens: cached,
  };
  return Object.values(usage).some((v) => v !== undefined) ? usage : undefined;
}

/** Codex's plan-limit answer: "You’ve hit your usage limit. … try again at 6:02 PM." (the worker's local time). */
const CODEX_LIMIT_LINE = /you(?:['’]ve| have) hit your usage limit/i;

function codexUsageLimit(text: string, now: number): ParsedAgentOutput['usageLimit'] {
  const line = text.split(/\r?\n/).find((l) => CODEX_LIMIT_LINE.test(l));
  if (!line) return undefined;
  const at = /try again at\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)?)/i.exec(line)?.[1];
  // Core reads the clock time once a line reads as a limit ("resets at 6:02 PM").
  const resetAt = at ? detectUsageLimit(`usage limit reached, resets at ${at}`, now)?.resetAt : undefined;
  return { message: line.trim().slice(0, 300), resetAt };
}
