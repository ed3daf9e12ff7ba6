import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectUsageLimit } from '../../core/claims';
import { hookEnv, hookShellCommand } from '../hooks/install';
import { resolveExecutable } from '../process';
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
    const sandboxEnv = inv.sandboxed
      ? {}
      : (codexSandboxEnv(inv.spec.binary ?? 'codex', inv.workspace, inv.spec.env?.PATH ?? process.env.PATH).env ?? {});
    const env = { ...sandboxEnv, ...hookEnv(inv) };
    return {
      file: inv.spec.binary ?? 'codex',
      args: [
        'exec',
        '--json',
        '--sandbox',
        // Under ralph's sandbox, which confines every write already, codex's own would nest a bubblewrap in ours.
        inv.sandboxed ? 'danger-full-access' : 'workspace-write',
        '--skip-git-repo-check',
        ...(inv.hooks?.enabled ? codexHookArgs() : []),
        ...model,
        ...inv.spec.args,
        // `-` reads the prompt from stdin: never argv, which Linux caps at 128 KiB per argument.
        '-',
      ],
      input: inv.prompt,
      ...(Object.keys(env).length ? { env } : {}),
    };
  },
  parse(out) {
    return parseCodexEvents(out.stdout, out.stderr, out.exitCode, out.now);
  },
};

/**
 * Ralph's hooks for `codex exec` (codex 0.169: hooks are a stable feature, on by default): `ralph hook pre-tool-use`
 * and `post-tool-use` on the shell tool (`Bash` to a hook) and `apply_patch`, as `-c` overrides, so the user's
 * config.toml is neither read for them nor written. Codex runs a hook only once it is trusted, and skips an untrusted
 * one without a word; `--dangerously-bypass-hook-trust` trusts the enabled hooks for this run, ours included: the
 * command is ralph's own, and the user's hooks are the user's (a project's `.codex/` ones load only in a trusted
 * project). The hook runs outside codex's own sandbox, with codex's environment (the RALPH_* variables).
 */
export function codexHookArgs(command: string = hookShellCommand()): string[] {
  const toml = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const entry = (event: string, name: string): string[] => [
    '-c',
    `hooks.${event}=[{matcher="Bash|apply_patch",hooks=[{type="command",command=${toml(`${command} ${name}`)},timeout=60}]}]`,
  ];
  return [
    '--dangerously-bypass-hook-trust',
    ...entry('PreToolUse', 'pre-tool-use'),
    ...entry('PostToolUse', 'post-tool-use'),
  ];
}

/**
 * Codex's own sandbox (`--sandbox workspace-write`) runs commands under bubblewrap: the first `bwrap` on PATH, else the
 * one bundled next to the codex binary (`codex-resources/bwrap`). Debian's bubblewrap (0.8) lacks what codex 0.169
 * asks of it, and every write of the agent then fails ("Failed to write file"). So the agent's PATH starts with a
 * folder holding a copy of codex's bundled `bwrap`, when the installation has it: codex keeps its sandbox, with the
 * bubblewrap it was built for. The folder is outside the workspace (`~/.cache/ralph/codex-bwrap/<hash>`), where the
 * sandboxed agent cannot replace it. No bundled bwrap (another platform, another layout): nothing changes.
 */
export function codexSandboxEnv(
  binary: string,
  workspace: string,
  searchPath: string | undefined,
): { env?: Record<string, string> } {
  if (process.platform !== 'linux') return {};
  const bundled = bundledBwrap(binary, workspace, searchPath);
  if (!bundled) return {};
  try {
    // Keyed by the installation's file, its size and time: an upgraded codex gets a fresh copy.
    const stat = fs.statSync(bundled);
    const dir = path.join(
      os.homedir(),
      '.cache',
      'ralph',
      'codex-bwrap',
      createHash('sha256').update(`${bundled}:${stat.size}:${stat.mtimeMs}`).digest('hex').slice(0, 16),
    );
    // A copy, not a link: codex will not run a bubblewrap that lives under a temporary folder, and an installation
    // (a CI checkout, say) may be under /tmp.
    const copy = path.join(dir, 'bwrap');
    if (!fs.existsSync(copy)) {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${copy}.${process.pid}`;
      fs.copyFileSync(bundled, tmp);
      fs.chmodSync(tmp, 0o755);
      fs.renameSync(tmp, copy);
    }
    return { env: { PATH: [dir, searchPath].filter(Boolean).join(path.delimiter) } };
  } catch {
    return {};
  }
}

/** The bubblewrap bundled with the codex installation `binary` resolves to, if there is one. */
function bundledBwrap(binary: string, workspace: string, searchPath: string | undefined): string | undefined {
  const found = resolveExecutable(binary, workspace, searchPath ?? '');
  if (!found) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(found);
  } catch {
    return undefined;
  }
  // The native binary (vendor/<triple>/bin/codex), or the npm package's launcher (@openai/codex/bin/codex.js) with
  // the platform package installed beside it or under it.
  const candidates = [path.join(path.dirname(real), '..', 'codex-resources', 'bwrap')];
  const pkg = path.dirname(path.dirname(real));
  for (const root of [path.join(pkg, 'node_modules', '@openai'), path.dirname(pkg)]) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(root).filter((n) => n.startsWith('codex-linux-'));
    } catch {
      continue;
    }
    for (const n of names) {
      let triples: string[] = [];
      try {
        triples = fs.readdirSync(path.join(root, n, 'vendor'));
      } catch {
        continue;
      }
      for (const t of triples) candidates.push(path.join(root, n, 'vendor', t, 'codex-resources', 'bwrap'));
    }
  }
  return candidates.find((c) => {
    try {
      return fs.statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

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
