import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectUsageLimit } from '../../core/claims';
import { hookEnv, hookShellCommand } from '../hooks/install';
import { type Json, asObj, isObj, num, str } from './json';
import type { AgentAdapterImpl, AgentUsage, ParsedAgentOutput } from './types';

/**
 * Google Gemini CLI in headless mode (`gemini -p`), answering with one JSON object.
 * Flags from geminicli.com/docs/cli/headless and docs/cli/cli-reference.md: `-p` forces non-interactive mode;
 * `--output-format json` prints `{session_id, response, stats, error?}`; `--approval-mode yolo` auto-approves tool
 * calls (the documented spelling of the deprecated `--yolo`).
 */
export const geminiAdapter: AgentAdapterImpl = {
  name: 'gemini',
  defaultBinary: 'gemini',
  build(inv) {
    const model = inv.spec.model ? ['--model', inv.spec.model] : [];
    const settings = inv.hooks?.enabled ? geminiHookSettingsFile(inv) : undefined;
    const env = settings ? { ...hookEnv(inv), [SYSTEM_SETTINGS_VAR]: settings } : {};
    return {
      file: inv.spec.binary ?? 'gemini',
      // The prompt goes through stdin (Gemini puts piped input before the `-p` text), never argv: Linux caps one
      // argument at 128 KiB. `-p` still forces headless mode.
      args: ['-p', ' ', '--output-format', 'json', '--approval-mode', 'yolo', ...model, ...inv.spec.args],
      input: inv.prompt,
      ...(settings ? { env } : {}),
    };
  },
  parse(out) {
    return parseGeminiJson(out.stdout, out.stderr, out.exitCode, out.now);
  },
};

/** Gemini CLI's system settings file: read after the user's and the project's, its hooks added to theirs. */
const SYSTEM_SETTINGS_VAR = 'GEMINI_CLI_SYSTEM_SETTINGS_PATH';

/** The variables the hook reads: passed on by name, as Gemini cuts a hook's environment down in some CI settings. */
const HOOK_VARS = [
  'RALPH_HOOK_POLICY',
  'RALPH_LOOP_ID',
  'RALPH_ITERATION',
  'RALPH_WORKSPACE',
  'RALPH_STATE_DIR',
  'RALPH_HOOK_SPOOL',
];

/** Gemini's hook settings for ralph's hook: before and after its file tools and its shell tool. */
export function geminiHookSettings(command: string = hookShellCommand()): Record<string, unknown> {
  const entry = (event: string) => [
    {
      matcher: '^(write_file|replace|run_shell_command)$',
      hooks: [
        {
          type: 'command',
          command: `${command} ${event}`,
          timeout: 60_000,
          env: Object.fromEntries(HOOK_VARS.map((v) => [v, `\${${v}}`])),
        },
      ],
    },
  ];
  return { hooks: { BeforeTool: entry('pre-tool-use'), AfterTool: entry('post-tool-use') } };
}

/**
 * Ralph's hooks for Gemini CLI (0.61: hooks on by default) in a system settings file of their own
 * (GEMINI_CLI_SYSTEM_SETTINGS_PATH), so the user's `~/.gemini/settings.json` and the repository's
 * `.gemini/settings.json` stay theirs; Gemini adds its hooks to theirs. Gemini reads that file only when root owns it
 * and every folder above it and none is writable by others: the file goes to `~/.cache/ralph/gemini-hooks/` and is
 * used only when that holds (a worker running as root). Otherwise, or when the environment already names a system
 * settings file (an administrator's), Gemini runs without ralph's hooks: the end of the iteration still judges.
 */
export function geminiHookSettingsFile(inv: { spec: { env?: Record<string, string> } }): string | undefined {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return undefined;
  if (inv.spec.env?.[SYSTEM_SETTINGS_VAR] || process.env[SYSTEM_SETTINGS_VAR]) return undefined;
  const text = JSON.stringify(geminiHookSettings(), null, 2) + '\n';
  const dir = path.join(os.homedir(), '.cache', 'ralph', 'gemini-hooks');
  const file = path.join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  try {
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
      const tmp = `${file}.${process.pid}`;
      fs.writeFileSync(tmp, text, { mode: 0o644 });
      fs.renameSync(tmp, file);
    }
    return rootOwnedChain(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Whether root owns `file` and every folder above it, none writable by group or others (Gemini's rule). */
function rootOwnedChain(file: string): boolean {
  for (let p = file; ; p = path.dirname(p)) {
    const st = fs.statSync(p);
    if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    if (path.dirname(p) === p) return true;
  }
}

/**
 * Reads `gemini --output-format json` output: `response` is the answer, `stats.models.*.tokens` the usage (summed over
 * models; `inputTokens` excludes cached input, `outputTokens` counts candidates plus thoughts, both billed as output).
 * In JSON mode Gemini writes a fatal error as `{"error": {...}}` to stderr; a quota error there is a usage limit.
 * A truncated object still yields its `response` when that string is whole; other text (text mode) is the answer as
 * is. It never throws.
 */
export function parseGeminiJson(
  stdout: string,
  stderr: string,
  exitCode: number | null,
  now: number,
): ParsedAgentOutput {
  const payload = findJsonObject(stdout);
  const errPayload = payload?.error ? undefined : findJsonObject(stderr);
  const error = asObj(payload?.error) ?? asObj(errPayload?.error);
  const errorMessage = error ? [str(error.type), str(error.message)].filter(Boolean).join(': ') : undefined;
  const response = payload ? str(payload.response) : salvageResponse(stdout);
  // A failed run's stderr explains it; a successful one's may only log retries it got past (a transient 429).
  const limitText = [errorMessage ?? '', exitCode !== 0 ? stderr : ''].filter(Boolean).join('\n');
  return {
    finalText: response ?? errorMessage ?? (payload ? '' : stdout.trim()),
    usage: readUsage(payload?.stats),
    usageLimit: geminiUsageLimit(limitText, error, now),
    sessionId: str(payload?.session_id) ?? str(errPayload?.session_id),
    isError: error ? true : payload ? false : undefined,
    // `code` is an HTTP status for API errors, an exit code (41: auth) for the CLI's own.
    apiStatus: httpStatus(num(error?.code)),
  };
}

const httpStatus = (n: number | undefined): number | undefined =>
  n !== undefined && n >= 400 && n < 600 ? n : undefined;

/** The `response` string of a JSON object cut short (Gemini prints it before `stats`), if it is whole. */
function salvageResponse(stdout: string): string | undefined {
  const key = stdout.indexOf('"response"');
  if (key < 0 || !/(?:^|\n)[ \t]*\{/.test(stdout.slice(0, key))) return undefined;
  const m = /^"response"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(stdout.slice(key));
  if (!m) return undefined;
  try {
    return str(JSON.parse(m[1]));
  } catch {
    return undefined;
  }
}

function readUsage(stats: unknown): AgentUsage | undefined {
  if (!isObj(stats) || !isObj(stats.models)) return undefined;
  let seen = false;
  const total = { input: 0, output: 0, cached: 0 };
  for (const m of Object.values(stats.models)) {
    const t = isObj(m) && isObj(m.tokens) ? m.tokens : undefined;
    if (!t) continue;
    seen = true;
    const cached = num(t.cached) ?? 0;
    total.input += num(t.input) ?? Math.max(0, (num(t.prompt) ?? 0) - cached);
    total.output += (num(t.candidates) ?? 0) + (num(t.thoughts) ?? 0);
    total.cached += cached;
  }
  return seen ? { inputTokens: total.input, outputTokens: total.output, cacheReadTokens: total.cached } : undefined;
}

/** Gemini's quota answers: "You have exhausted your capacity on this model. Your quota will reset after 2h13m37s." */
const GEMINI_LIMIT = /exhausted your (?:[\w-]+ )?(?:quota|capacity)|quota will reset|TerminalQuotaError/i;

function geminiUsageLimit(text: string, error: Json | undefined, now: number): ParsedAgentOutput['usageLimit'] {
  const found = detectUsageLimit(text, now);
  const quotaError = /quota/i.test(str(error?.type) ?? '') || error?.code === 429;
  const line = text.split(/\r?\n/).find((l) => GEMINI_LIMIT.test(l));
  if (!found && !line && !quotaError) return undefined;
  const message = found?.message ?? (line ?? (text.trim().split(/\r?\n/)[0] || 'quota exhausted')).trim().slice(0, 300);
  // "Please retry in 5400s." (the API's RetryInfo, quoted in stderr) is the reset when nothing names one.
  const retryIn = /retry in\s+\d+(?:\.\d+)?\s*s\b/i.exec(text)?.[0];
  const resetAt =
    found?.resetAt ??
    resetAfter(text, now) ??
    (retryIn ? detectUsageLimit(`usage limit reached: ${retryIn}`, now)?.resetAt : undefined);
  return { message, resetAt };
}

/** "reset after 2h13m37s" (a Go duration) → epoch ms. */
function resetAfter(text: string, now: number): number | undefined {
  const m = /reset after\s+((?:\d+(?:\.\d+)?h)?(?:\d+(?:\.\d+)?m(?!s))?(?:\d+(?:\.\d+)?s)?)/i.exec(text);
  if (!m || !m[1]) return undefined;
  let ms = 0;
  for (const [, n, unit] of m[1].matchAll(/(\d+(?:\.\d+)?)([hms])/g))
    ms += Number(n) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000);
  return now + Math.round(ms);
}

/** Candidate starts tried by {@link findJsonObject}: the object comes first, so a few are plenty. */
const MAX_JSON_STARTS = 20;

/**
 * The first JSON object in `text` that opens a line with `{` alone or `{"` (Gemini pretty-prints it over many lines
 * and may print notices before it). Scans for the matching brace, minding strings, then parses; undefined if none
 * parses.
 */
export function findJsonObject(text: string): Json | undefined {
  let tries = 0;
  for (const m of text.matchAll(/^[ \t]*\{[ \t]*(?:\r?\n|")/gm)) {
    if (++tries > MAX_JSON_STARTS) break;
    const start = (m.index ?? 0) + m[0].indexOf('{');
    const end = matchingBrace(text, start);
    if (end < 0) continue;
    try {
      const v: unknown = JSON.parse(text.slice(start, end + 1));
      if (isObj(v)) return v;
    } catch {
      // not JSON after all: keep looking
    }
  }
  return undefined;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
