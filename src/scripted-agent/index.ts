#!/usr/bin/env node
/**
 * ralph-scripted-agent: a deterministic stand-in for an AI coding agent, as a real subprocess. It follows a JSON script
 * of per-iteration steps (write/delete files, run commands, print, claim done, report usage, sleep, hang, exit, hit a
 * usage limit, run ralph's tool-call hook). Tests and the demo drive loops with it.
 *
 *   ralph-scripted-agent --script script.json --iteration 3 [--prompt-file prompt.md] [--loop-id id]
 */
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { formatIssues } from '../config/loop-input';
import { AgentScript, stepsFor, type ScriptStep } from './script';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(msg: string): never {
  process.stderr.write(`ralph-scripted-agent: ${msg}\n`);
  process.exit(2);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const scriptPath = arg('script') ?? fail('missing --script <file.json>');
  const iteration = Number(arg('iteration') ?? process.env.RALPH_ITERATION ?? '1');
  if (!Number.isInteger(iteration) || iteration < 1)
    fail(`--iteration must be a positive integer, got ${arg('iteration')}`);
  const run = Number(process.env.RALPH_RUN ?? '1');
  const attempt = Number(process.env.RALPH_ATTEMPT ?? '1');
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
  } catch (e) {
    fail(`can't read script ${scriptPath}: ${(e as Error).message}`);
  }
  const parsed = AgentScript.safeParse(json);
  if (!parsed.success) fail(`invalid script ${scriptPath}: ${formatIssues(parsed.error, 'script')}`);
  const cwd = process.cwd();
  const inside = (p: string): string => path.resolve(cwd, p);
  process.stdout.write(`[scripted-agent] iteration ${iteration} (run ${run}, attempt ${attempt})\n`);
  let denied = false;
  const taskId = process.env.RALPH_TASK_ID;
  const task = taskId ? { id: taskId, attempt: Number(process.env.RALPH_TASK_ATTEMPT ?? '1') } : undefined;
  for (const step of stepsFor(parsed.data, iteration, task)) {
    if (step.onRun !== undefined && step.onRun !== run) continue;
    if (step.onAttempt !== undefined && step.onAttempt !== attempt) continue;
    if (denied) {
      // Claude Code does not run a tool call its PreToolUse hook denied: neither does the scripted agent.
      denied = false;
      process.stdout.write(`[hook] skipped denied step ${JSON.stringify(step)}\n`);
      continue;
    }
    if ('hook' in step) denied = runHook(step, { loopId: arg('loop-id') ?? '', iteration }) === 'deny';
    else await perform(step, inside);
  }
}

type HookStep = Extract<ScriptStep, { hook: string }>;

/**
 * Runs `$RALPH_HOOK_COMMAND <event>` through the shell with Claude Code's hook input on stdin, prints its decision as
 * `[hook] <decision>: <message>` (allow, warn, deny, or block after a call) and returns it. A hook that fails or answers nonsense does not stop the agent
 * (Claude Code treats it as a non-blocking error): that is reported as `[hook] error: ...` and counts as allow.
 */
function runHook(step: HookStep, ctx: { loopId: string; iteration: number }): 'allow' | 'warn' | 'deny' | 'block' {
  const command = process.env.RALPH_HOOK_COMMAND;
  if (!command) {
    process.stdout.write('[hook] no hook installed\n');
    return 'allow';
  }
  const pre = step.hook === 'pre-tool-use';
  const payload = {
    session_id: `scripted-${ctx.loopId}-${ctx.iteration}`,
    transcript_path: '',
    cwd: process.cwd(),
    permission_mode: 'acceptEdits',
    hook_event_name: pre ? 'PreToolUse' : 'PostToolUse',
    tool_name: step.tool,
    tool_input: step.input,
    ...(pre ? {} : { tool_response: step.response ?? {} }),
  };
  const r = spawnSync('/bin/sh', ['-c', `${command} ${step.hook}`], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.stderr) process.stderr.write(r.stderr);
  let answer: {
    systemMessage?: unknown;
    decision?: unknown;
    reason?: unknown;
    hookSpecificOutput?: Record<string, unknown>;
  };
  try {
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`exited ${r.status ?? r.signal}`);
    answer = JSON.parse(r.stdout) as typeof answer;
  } catch (e) {
    process.stdout.write(`[hook] error: ${(e as Error).message}\n`);
    return 'allow';
  }
  const out = answer.hookSpecificOutput ?? {};
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
  // PostToolUse's block (in-iteration correction): Claude Code hands the reason to the model at once.
  const decision =
    answer.decision === 'block'
      ? 'block'
      : out.permissionDecision === 'deny'
        ? 'deny'
        : text(out.additionalContext) || text(answer.systemMessage)
          ? 'warn'
          : 'allow';
  const message =
    decision === 'block'
      ? text(answer.reason)
      : decision === 'deny'
        ? text(out.permissionDecisionReason)
        : (text(out.additionalContext) ?? text(answer.systemMessage));
  process.stdout.write(`[hook] ${decision}${message ? `: ${message}` : ''}\n`);
  return decision;
}

async function perform(step: ScriptStep, inside: (p: string) => string): Promise<void> {
  if ('write' in step) {
    fs.mkdirSync(path.dirname(inside(step.write)), { recursive: true });
    fs.writeFileSync(inside(step.write), step.content);
    process.stdout.write(`wrote ${step.write}\n`);
  } else if ('append' in step) {
    fs.mkdirSync(path.dirname(inside(step.append)), { recursive: true });
    fs.appendFileSync(inside(step.append), step.content);
  } else if ('delete' in step) {
    fs.rmSync(inside(step.delete), { recursive: true, force: true });
    process.stdout.write(`deleted ${step.delete}\n`);
  } else if ('mkdir' in step) {
    fs.mkdirSync(inside(step.mkdir), { recursive: true });
  } else if ('run' in step) {
    try {
      process.stdout.write(execSync(step.run, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; status?: number };
      process.stdout.write(`${err.stdout ?? ''}${err.stderr ?? ''}command exited ${err.status}\n`);
    }
  } else if ('print' in step) {
    process.stdout.write(step.print.endsWith('\n') ? step.print : step.print + '\n');
  } else if ('stderr' in step) {
    process.stderr.write(step.stderr + '\n');
  } else if ('printBytes' in step) {
    const line = 'x'.repeat(1023) + '\n';
    let left = step.printBytes;
    while (left > 0) {
      const chunk = line.repeat(Math.min(64, Math.ceil(left / 1024))).slice(0, left);
      if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
      left -= chunk.length;
    }
  } else if ('claimDone' in step) {
    process.stdout.write('EXIT_SIGNAL: true\n');
  } else if ('promise' in step) {
    process.stdout.write(`<promise>${step.promise}</promise>\n`);
  } else if ('evidence' in step) {
    process.stdout.write(`## Evidence\n${step.evidence.map((f) => `- ${f}`).join('\n')}\n`);
  } else if ('usage' in step) {
    process.stdout.write(`RALPH_USAGE ${JSON.stringify(step.usage)}\n`);
  } else if ('sleep' in step) {
    await sleep(step.sleep);
  } else if ('hang' in step) {
    for (;;) await sleep(60_000);
  } else if ('exit' in step) {
    process.exit(step.exit);
  } else if ('usageLimit' in step) {
    const at = step.usageLimit.resetAt
      ? Date.parse(step.usageLimit.resetAt)
      : Date.now() + (step.usageLimit.resetInSeconds ?? 60) * 1000;
    // Claude Code's historical format: message|<epoch seconds>.
    process.stdout.write(`Claude AI usage limit reached|${Math.ceil(at / 1000)}\n`);
    process.exit(1);
  }
}

main().catch((e: unknown) => fail((e as Error).stack ?? String(e)));
