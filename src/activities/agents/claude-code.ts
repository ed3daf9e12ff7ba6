import path from 'node:path';
import { detectUsageLimit } from '../../core/claims';
import { writeJsonAtomic } from '../../state/artifacts';
import { claudeHookSettings, hookEnv } from '../hooks/install';
import { type Json, isObj, num, parseJsonObject, str } from './json';
import type { AgentAdapterImpl, AgentUsage, ParsedAgentOutput } from './types';

/**
 * Claude Code in print mode (`claude -p`, the prompt on stdin), streaming its transcript as JSON lines.
 * Flags from the headless-mode and CLI reference docs (code.claude.com/docs/en/headless, /cli-reference):
 * `--output-format stream-json` needs `--verbose` in print mode; `--permission-mode acceptEdits` lets it edit files
 * without a prompt nobody could answer, while shell commands still need `--allowedTools` (add them to `agent.args`).
 * With hooks enabled, `<artifactDir>/claude-settings.json` registers ralph's PreToolUse/PostToolUse hooks on
 * Write|Edit|MultiEdit|NotebookEdit|Bash and is passed with `--settings` (merged with the user's own settings).
 */
export const claudeCodeAdapter: AgentAdapterImpl = {
  name: 'claude-code',
  defaultBinary: 'claude',
  build(inv) {
    const model = inv.spec.model ? ['--model', inv.spec.model] : [];
    const settings: string[] = [];
    if (inv.hooks?.enabled) {
      const file = path.join(inv.artifactDir, 'claude-settings.json');
      writeJsonAtomic(file, claudeHookSettings());
      settings.push('--settings', file);
    }
    const env = hookEnv(inv);
    return {
      file: inv.spec.binary ?? 'claude',
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'acceptEdits',
        ...model,
        ...settings,
        ...inv.spec.args,
      ],
      // Through stdin, never argv: Linux caps one argument at 128 KiB and a prompt with feedback can be longer.
      input: inv.prompt,
      ...(Object.keys(env).length ? { env } : {}),
    };
  },
  parse(out) {
    return parseClaudeStream(out.stdout, out.stderr, out.exitCode, out.now);
  },
};

/** Tools whose `tool_use` input names a file Claude wrote. */
export const CLAUDE_EDIT_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Reads a `--output-format stream-json` transcript: the final `result` event (answer, `is_error`, cost, usage,
 * session), the files named by Write/Edit/MultiEdit/NotebookEdit tool calls, and a usage-limit answer. Lines that are
 * not whole JSON objects (a run killed mid-line, stray text) are skipped; it never throws.
 */
export function parseClaudeStream(
  stdout: string,
  stderr: string,
  exitCode: number | null,
  now: number,
): ParsedAgentOutput {
  let result: Json | undefined;
  let sessionId: string | undefined;
  let messageId: unknown;
  let messageText: string[] = [];
  let lastText: string | undefined;
  const filesTouched: string[] = [];
  const other: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const ev = parseJsonObject(line);
    if (!ev) {
      if (line.trim()) other.push(line);
      continue;
    }
    sessionId = str(ev.session_id) ?? sessionId;
    if (ev.type === 'result') result = ev;
    if (ev.type !== 'assistant' || !isObj(ev.message) || !Array.isArray(ev.message.content)) continue;
    // One assistant message arrives as several events (one per content block) sharing its id.
    if (ev.message.id === undefined || ev.message.id !== messageId) messageText = [];
    messageId = ev.message.id;
    for (const block of ev.message.content) {
      if (!isObj(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        messageText.push(block.text);
        lastText = messageText.join('\n');
      }
      if (block.type === 'tool_use' && CLAUDE_EDIT_TOOLS.has(String(block.name)) && isObj(block.input)) {
        const file = str(block.input.file_path) ?? str(block.input.notebook_path);
        if (file && !filesTouched.includes(file)) filesTouched.push(file);
      }
    }
  }

  const errors = Array.isArray(result?.errors) ? result.errors.filter((e): e is string => typeof e === 'string') : [];
  const finalText = str(result?.result) ?? lastText ?? (errors.length ? errors.join('\n') : other.join('\n'));
  const isError = result ? result.is_error === true || String(result.subtype ?? '').startsWith('error') : undefined;
  return {
    finalText,
    usage: readUsage(result),
    usageLimit: claudeUsageLimit(finalText, stderr, {
      isError,
      exitCode,
      apiStatus: num(result?.api_error_status),
      now,
    }),
    filesTouched: filesTouched.length ? filesTouched : undefined,
    sessionId,
    isError,
    apiStatus: num(result?.api_error_status),
  };
}

function readUsage(result: Json | undefined): AgentUsage | undefined {
  if (!result) return undefined;
  const u = isObj(result.usage) ? result.usage : {};
  const usage: AgentUsage = {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cacheReadTokens: num(u.cache_read_input_tokens),
    cacheWriteTokens: num(u.cache_creation_input_tokens),
    costUsd: num(result.total_cost_usd),
  };
  return Object.values(usage).some((v) => v !== undefined) ? usage : undefined;
}

/** Claude's newer limit answers name the limit: "You've hit your session limit · resets 7:20am (Europe/Paris)". */
const CLAUDE_LIMIT_LINE = /you(?:['’]ve| have) hit your (?:[\w-]+ ){0,2}limit/i;
/** The older answer is unmistakable even inside a successful result: "Claude AI usage limit reached|1735689600". */
const CLAUDE_EPOCH_LIMIT = /usage limit reached\|\d{10}/i;

function claudeUsageLimit(
  finalText: string,
  stderr: string,
  o: { isError?: boolean; exitCode: number | null; apiStatus?: number; now: number },
): ParsedAgentOutput['usageLimit'] {
  // An agent that *talks about* rate limits (say, while implementing one) is not limited: read the answer only when
  // Claude flagged it as an error, and stderr only when the run failed.
  const answer = o.isError !== false || CLAUDE_EPOCH_LIMIT.test(finalText) ? finalText : '';
  const text = [answer, o.exitCode !== 0 ? stderr : ''].filter(Boolean).join('\n');
  const found = detectUsageLimit(text, o.now);
  if (found) return found;
  const line = text.split(/\r?\n/).find((l) => CLAUDE_LIMIT_LINE.test(l));
  if (!line && !(o.isError && o.apiStatus === 429)) return undefined;
  const message = (line ?? (text.trim().split(/\r?\n/)[0] || 'rate limited (HTTP 429)')).trim().slice(0, 300);
  // Core understands the reset clause ("resets 3pm", "|<epoch>") once a line reads as a limit: reuse it.
  return { message, resetAt: detectUsageLimit(`usage limit reached: ${message}`, o.now)?.resetAt };
}
