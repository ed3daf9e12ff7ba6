/**
 * `ralph start`: starts a Ralph loop from flags and/or a config file (flags win), prints its id, and with `--follow`
 * watches it to the end: a line per change of iteration/phase/status, each finished iteration with its check result
 * and feedback, pending gates with the commands that answer them, and the result.
 *
 * `ralph start --prd <file>` starts a project instead: the PRD's tasks worked one by one by child loops with the same
 * agent and check (`{taskId}` in the check is replaced). With `--follow` it prints a line per attempt end and stops
 * when the project ends or waits for an operator (blocked tasks, with the commands that unblock them).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import YAML from 'yaml';
import { z } from 'zod';
import { InvalidInputError, LoopNotFoundError, ProjectNotFoundError, startLoop, startProject } from '../../client';
import { LoopInput, type LoopInputRaw, formatIssues } from '../../config/loop-input';
import { ProjectInput, type ProjectInputRaw } from '../../config/project-input';
import type { AttemptRecord, ProjectState } from '../../core/project-machine';
import type { ProjectResult } from '../../workflows/ralph-project';
import {
  TERMINAL_STATUSES,
  type HumanGate,
  type IterationRecord,
  type LoopResult,
  type LoopState,
} from '../../core/loop-types';
import { type CommandContext, formatDuration, intOption, runCommand, UsageError } from '../run-command';
import { gateLines, shellQuote, withTimeout } from '../signal-helpers';
import { blockedLines } from './blocked';
import { logLoopEvent } from '../../telemetry/logger';
import { shellWords } from '../../core/shell-words';

/** Options of `ralph start`, as commander hands them over. */
export const StartOptions = z.object({
  prompt: z.string().optional(),
  promptFile: z.string().optional(),
  workspace: z.string().optional(),
  agent: z.string().optional(),
  agentBinary: z.string().optional(),
  model: z.string().optional(),
  agentArg: z.array(z.string()).optional(),
  command: z.array(z.string()).optional(),
  script: z.string().optional(),
  check: z.string().optional(),
  promise: z.string().optional(),
  checkOn: z.string().optional(),
  maxIterations: intOption().optional(),
  iterationTimeout: intOption().optional(),
  heartbeatTimeout: intOption().optional(),
  continueAsNewEvery: intOption().optional(),
  antiLaziness: z.boolean().optional(),
  hookPolicy: z.string().optional(),
  bestOutput: z.string().optional(),
  verification: z.boolean().optional(),
  protect: z.array(z.string()).optional(),
  allowEdit: z.array(z.string()).optional(),
  onProtectedEdit: z.string().optional(),
  config: z.string().optional(),
  prd: z.string().min(1).optional(),
  iterationsPerAttempt: intOption().positive().optional(),
  autoUnblock: z.boolean().optional(),
  id: z.string().min(1).optional(),
  host: z.string().min(1).optional(),
  hostWait: intOption().positive().optional(),
  follow: z.boolean().default(false),
  json: z.boolean().default(false),
});
/** Options of `ralph start`. */
export type StartOptions = z.infer<typeof StartOptions>;

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Registers `ralph start` on the program. */
export function startCommand(program: Command): Command {
  return program
    .command('start')
    .description(
      'start a Ralph loop: an agent works on a task until a completion check passes or a human decides; ' +
        'with --prd, a project: every task of a PRD in turn',
    )
    .option('--prompt <text>', 'the task for the agent (with --prd: text put before every task)')
    .option('--prompt-file <file>', 'a file holding the task (re-read every iteration)')
    .option('--workspace <dir>', 'directory the agent works in (default: the current directory)')
    .option('--agent <adapter>', 'claude-code | codex | gemini | aider | command | scripted (default: claude-code)')
    .option('--agent-binary <path>', "executable to run instead of the adapter's default")
    .option('--model <name>', 'model passed to the agent CLI')
    .option(
      '--agent-arg <arg>',
      'extra argument for the agent (repeatable; use --agent-arg=--flag for dashes)',
      collect,
    )
    .option(
      '--command <argv...>',
      "the command adapter's argv; {prompt} and {promptFile} are replaced (one quoted string is split on spaces)",
    )
    .option('--script <file>', "the scripted agent's JSON script")
    .option(
      '--check <shell-command>',
      'completion check: the loop completes only when this exits 0 (with --prd, {taskId} is the task id)',
    )
    .option('--promise <text>', 'the agent claims completion by printing <promise>TEXT</promise>')
    .option(
      '--check-on <when>',
      'claim | every-iteration: when to run the check (default: every-iteration, or claim with --promise)',
    )
    .option('--max-iterations <n>', 'iterations before a human gate asks to approve, reject or abort (default 10)')
    .option('--iteration-timeout <secs>', 'time limit of one agent run (default 1800)')
    .option(
      '--heartbeat-timeout <secs>',
      'how soon a dead worker is noticed: agent, check, gate and verification activities heartbeat within this (default 60)',
    )
    .option('--continue-as-new-every <n>', 'continue-as-new after this many iterations (default 50)')
    .option('--no-anti-laziness', 'turn off snapshots, checkpoints, detectors, reinforcement and best-output selection')
    .option('--hook-policy <warn|deny>', 'answer to risky tool calls of hook-capable agents (default warn)')
    .option(
      '--best-output <worktree|branch|off>',
      'where a better earlier iteration is restored at loop end (default worktree)',
    )
    .option('--no-verification', "accept on the agent's checks alone (no re-run with the protected files restored)")
    .option('--protect <glob>', 'protect these files too (repeatable), e.g. --protect "golden/**"', collect)
    .option('--allow-edit <glob>', 'let the agent change these protected files (repeatable)', collect)
    .option(
      '--on-protected-edit <human|revert|allow>',
      'protected files changed but the original checks pass: ask a human (default), revert them, or allow',
    )
    .option(
      '--config <file>',
      'a LoopInput object (with --prd: a ProjectInput, e.g. timeouts) as .json or .yaml; flags override its fields',
    )
    .option('--prd <file>', 'start a project: work the tasks of this prd.json or Markdown checklist one by one')
    .option('--iterations-per-attempt <n>', 'with --prd: iterations of one attempt at a task (default 1)')
    .option('--auto-unblock', 'with --prd: unblock a blocked task once on its own, with the adaptive timeout')
    .option('--host <id>', "the host holding the workspace: its activities run on that host's workers (--host there)")
    .option('--host-wait <secs>', 'report the host as unreachable after an activity waited this long (default 300)')
    .option('--id <id>', 'the loop id (default: ralph-<task slug>-<hex>; with --prd: ralph-project-<prd slug>-<hex>)')
    .option(
      '--follow',
      'watch the loop until it ends; exit 0 if accepted, 1 otherwise (with --prd: until the project ends or ' +
        'waits for an operator; exit 0 only if every task is done)',
    )
    .option(
      '--json',
      'print {loopId} (with --follow: {loopId, result}; with --prd: {projectId[, result]}) as JSON; progress goes to stderr',
    )
    .action(
      runCommand(StartOptions, async (o, _args, ctx) => {
        if (o.prd !== undefined) return startProjectCommand(o, ctx);
        for (const [flag, set] of [
          ['--iterations-per-attempt', o.iterationsPerAttempt !== undefined],
          ['--auto-unblock', o.autoUnblock !== undefined],
        ] as const)
          if (set) throw new UsageError(`${flag} applies to projects only: add --prd <file>`);
        const input = buildLoopInput(o, process.cwd());
        const client = await ctx.client();
        const loopId = await startLoop(client, input, { taskQueue: ctx.connection.taskQueue, loopId: o.id });
        logLoopEvent('loop.started', { loopId, agent: input.agent?.adapter, taskQueue: ctx.connection.taskQueue });
        if (!o.follow) {
          if (o.json) ctx.out.json({ loopId });
          else ctx.out.line(loopId);
          return;
        }
        if (!o.json) ctx.out.line(loopId);
        const result = await followLoop(client, loopId, {
          print: o.json ? ctx.out.note : ctx.out.line,
          connectionFlags: ctx.connectionFlags,
          taskQueue: ctx.connection.taskQueue,
        });
        if (o.json) ctx.out.json({ loopId, result });
        return result.status === 'accepted' ? 0 : 1;
      }),
    );
}

/** Which flag sets each LoopInput field, so an error names what to type. */
const FLAG_OF: Record<string, string> = {
  prompt: '--prompt / --prompt-file',
  promptFile: '--prompt-file',
  workspace: '--workspace',
  agent: '--agent',
  'agent.adapter': '--agent',
  'agent.binary': '--agent-binary',
  'agent.model': '--model',
  'agent.args': '--agent-arg',
  'agent.command': '--command',
  'agent.script': '--script',
  completion: '--check / --promise',
  'completion.command': '--check',
  'completion.promise': '--promise',
  'completion.checkOn': '--check-on',
  maxIterations: '--max-iterations',
  iterationTimeoutSeconds: '--iteration-timeout',
  heartbeatTimeoutSeconds: '--heartbeat-timeout',
  continueAsNewEvery: '--continue-as-new-every',
  host: '--host',
  hostWaitSeconds: '--host-wait',
  'persistence.enabled': '--no-anti-laziness',
  'persistence.hooks.policy': '--hook-policy',
  'persistence.bestOutput.restore': '--best-output',
  'verification.enabled': '--no-verification',
  'verification.protect': '--protect',
  'verification.allow': '--allow-edit',
  'verification.onProtectedEdit': '--on-protected-edit',
  prdFile: '--prd',
  preamble: '--prompt',
  iterationsPerAttempt: '--iterations-per-attempt',
  autoUnblock: '--auto-unblock',
};

/**
 * Builds the loop input: the config file's object (if any), then every flag given on top. Paths typed on the command
 * line are relative to the current directory; a relative workspace in a config file is relative to that file.
 * Throws {@link InvalidInputError} naming each bad field (and its flag) before anything is sent.
 */
export function buildLoopInput(o: StartOptions, cwd: string): LoopInputRaw {
  if (o.prompt !== undefined && o.promptFile !== undefined)
    throw new UsageError('use --prompt or --prompt-file, not both');
  const base = o.config ? loadConfigFile(path.resolve(cwd, o.config)) : {};
  const baseDir = o.config ? path.dirname(path.resolve(cwd, o.config)) : cwd;
  const input: Record<string, unknown> = { ...base };
  if (o.prompt !== undefined) {
    input.prompt = o.prompt;
    delete input.promptFile;
  }
  if (o.promptFile !== undefined) {
    input.promptFile = path.resolve(cwd, o.promptFile);
    delete input.prompt;
  }
  input.workspace = o.workspace
    ? path.resolve(cwd, o.workspace)
    : typeof base.workspace === 'string'
      ? path.resolve(baseDir, base.workspace)
      : cwd;

  input.agent = agentFrom(o, base, cwd);
  input.completion = completionFrom(o, base);

  if (o.maxIterations !== undefined) input.maxIterations = o.maxIterations;
  if (o.iterationTimeout !== undefined) input.iterationTimeoutSeconds = o.iterationTimeout;
  if (o.heartbeatTimeout !== undefined) input.heartbeatTimeoutSeconds = o.heartbeatTimeout;
  if (o.continueAsNewEvery !== undefined) input.continueAsNewEvery = o.continueAsNewEvery;
  if (o.host !== undefined) input.host = o.host;
  if (o.hostWait !== undefined) input.hostWaitSeconds = o.hostWait;
  const persistence = persistenceFrom(o, base);
  if (persistence) input.persistence = persistence;
  const verification = verificationFrom(o, base);
  if (verification) input.verification = verification;

  const parsed = LoopInput.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(`invalid loop input: ${problemsWithFlags(parsed.error)}`);
  return input as LoopInputRaw;
}

/** Every zod issue of an input, each followed by the flag that sets its field. */
function problemsWithFlags(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.map(String).join('.');
      const flag = FLAG_OF[key] ?? FLAG_OF[String(issue.path[0])];
      return formatIssues(new z.ZodError([issue])) + (flag ? ` (${flag})` : '');
    })
    .join('; ');
}

/** The agent spec: the config file's, then the agent flags on top. */
function agentFrom(o: StartOptions, base: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const agent: Record<string, unknown> = { ...asObject(base.agent) };
  agent.adapter = o.agent ?? agent.adapter ?? (o.script ? 'scripted' : o.command ? 'command' : 'claude-code');
  if (o.agentBinary !== undefined) agent.binary = o.agentBinary;
  if (o.model !== undefined) agent.model = o.model;
  if (o.agentArg !== undefined) agent.args = o.agentArg;
  if (o.command !== undefined) agent.command = o.command.length === 1 ? shellWords(o.command[0]) : o.command;
  if (o.script !== undefined) agent.script = path.resolve(cwd, o.script);
  return agent;
}

/** The completion criteria: the config file's, then --check, --promise and --check-on on top. */
function completionFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> {
  const completion: Record<string, unknown> = { ...asObject(base.completion) };
  if (o.check !== undefined) completion.command = o.check;
  if (o.promise !== undefined) completion.promise = o.promise;
  if (o.checkOn !== undefined) completion.checkOn = o.checkOn;
  return completion;
}

/** The anti-laziness settings when a flag touches them (else undefined: the config file's, or the defaults). */
function persistenceFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> | undefined {
  if (o.antiLaziness !== false && o.hookPolicy === undefined && o.bestOutput === undefined) return undefined;
  const p: Record<string, unknown> = { ...asObject(base.persistence) };
  if (o.antiLaziness === false) p.enabled = false;
  if (o.hookPolicy !== undefined) p.hooks = { ...asObject(p.hooks), policy: o.hookPolicy };
  if (o.bestOutput !== undefined) p.bestOutput = { ...asObject(p.bestOutput), restore: o.bestOutput };
  return p;
}

/** The verification settings when a flag touches them (else undefined: the config file's, or the defaults). */
function verificationFrom(o: StartOptions, base: Record<string, unknown>): Record<string, unknown> | undefined {
  if (o.verification !== false && !o.protect && !o.allowEdit && o.onProtectedEdit === undefined) return undefined;
  const v: Record<string, unknown> = { ...asObject(base.verification) };
  if (o.verification === false) v.enabled = false;
  if (o.protect) v.protect = [...((v.protect as string[] | undefined) ?? []), ...o.protect];
  if (o.allowEdit) v.allow = [...((v.allow as string[] | undefined) ?? []), ...o.allowEdit];
  if (o.onProtectedEdit !== undefined) v.onProtectedEdit = o.onProtectedEdit;
  return v;
}

/** Loop flags that mean nothing to a project, and why (each attempt's timeout is adaptive, its prompt is the task). */
const LOOP_ONLY_FLAGS: [keyof StartOptions, string, string][] = [
  ['promptFile', '--prompt-file', 'each task is its own prompt (use --prompt for text put before every task)'],
  ['maxIterations', '--max-iterations', 'use --iterations-per-attempt'],
  ['iterationTimeout', '--iteration-timeout', "a task's timeout adapts to its complexity (set `timeouts` in --config)"],
  ['continueAsNewEvery', '--continue-as-new-every', 'set continueAsNewEvery (attempts) in --config'],
];

/**
 * Builds a project's input from --prd, the shared agent/check/workspace flags and a ProjectInput --config file (flags
 * win). The PRD must exist here: it is checked before anything is sent. Throws {@link InvalidInputError} naming each
 * bad field (and its flag).
 */
export function buildProjectInput(o: StartOptions, cwd: string): ProjectInputRaw {
  for (const [key, flag, instead] of LOOP_ONLY_FLAGS)
    if (o[key] !== undefined) throw new UsageError(`${flag} does not apply to a project (--prd): ${instead}`);
  const prdFile = path.resolve(cwd, o.prd ?? '');
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(prdFile);
  } catch {
    stat = undefined;
  }
  if (!stat?.isFile())
    throw new UsageError(
      `PRD file ${stat ? 'is a directory' : 'not found'}: ${prdFile}: --prd takes a prd.json or Markdown checklist`,
    );
  const base = o.config ? loadConfigFile(path.resolve(cwd, o.config), 'ProjectInput') : {};
  const baseDir = o.config ? path.dirname(path.resolve(cwd, o.config)) : cwd;
  const input: Record<string, unknown> = { ...base, prdFile };
  input.workspace = o.workspace
    ? path.resolve(cwd, o.workspace)
    : typeof base.workspace === 'string'
      ? path.resolve(baseDir, base.workspace)
      : cwd;
  input.agent = agentFrom(o, base, cwd);
  input.completion = completionFrom(o, base);
  if (o.prompt !== undefined) input.preamble = o.prompt;
  if (o.iterationsPerAttempt !== undefined) input.iterationsPerAttempt = o.iterationsPerAttempt;
  if (o.autoUnblock !== undefined) input.autoUnblock = o.autoUnblock;
  if (o.heartbeatTimeout !== undefined) input.heartbeatTimeoutSeconds = o.heartbeatTimeout;
  const persistence = persistenceFrom(o, base);
  if (persistence) input.persistence = persistence;

  const parsed = ProjectInput.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(`invalid project input: ${problemsWithFlags(parsed.error)}`);
  return input as ProjectInputRaw;
}

/** `ralph start --prd`: starts the project, prints its id and, with --follow, follows it. */
async function startProjectCommand(o: StartOptions, ctx: CommandContext): Promise<number | void> {
  const input = buildProjectInput(o, process.cwd());
  const client = await ctx.client();
  const projectId = await startProject(client, input, { taskQueue: ctx.connection.taskQueue, projectId: o.id });
  logLoopEvent('project.started', { loopId: projectId, taskQueue: ctx.connection.taskQueue });
  if (!o.follow) {
    if (o.json) ctx.out.json({ projectId });
    else ctx.out.line(projectId);
    return;
  }
  if (!o.json) ctx.out.line(projectId);
  const result = await followProject(client, projectId, {
    print: o.json ? ctx.out.note : ctx.out.line,
    connectionFlags: ctx.connectionFlags,
    taskQueue: ctx.connection.taskQueue,
  });
  if (o.json) ctx.out.json({ projectId, result });
  return result.status === 'done' ? 0 : 1;
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function loadConfigFile(file: string, what: 'LoopInput' | 'ProjectInput' = 'LoopInput'): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`config file not found: ${file}`);
    throw e;
  }
  let value: unknown;
  try {
    value = /\.ya?ml$/i.test(file) ? YAML.parse(text) : JSON.parse(text);
  } catch (e) {
    throw new InvalidInputError(
      `config file ${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(e as Error).message}`,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidInputError(
      `config file ${file} must hold one ${what} object (${what === 'LoopInput' ? 'prompt' : 'timeouts'}, workspace, agent, completion, ...)`,
    );
  return value as Record<string, unknown>;
}

/** Options of {@link followLoop}. */
export interface FollowOptions {
  /** Where progress lines go. */
  print: (line: string) => void;
  /** Poll interval (default 1 s). */
  intervalMs?: number;
  /** Prefix of every line (the demo names its loops). */
  label?: string;
  /** Connection flags to repeat in the commands shown at a gate. */
  connectionFlags?: string;
  /** Task queue named in the hint printed while no worker answers. */
  taskQueue?: string;
  /** Called once per gate that opens, after it is printed (the demo answers gates here). */
  onGate?: (gate: HumanGate, state: LoopState) => Promise<void> | void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One line about a finished iteration: outcome, agent exit, check and duration. */
export function recordLine(r: IterationRecord): string {
  const agent = r.agent.failure ? `agent failed (${r.agent.failure})` : `agent exit ${r.agent.exitCode ?? '-'}`;
  const claim = r.agent.claimed ? (r.claimOverridden ? ' · claimed done (overridden)' : ' · claimed done') : '';
  const files = r.changes ? ` · ${r.changes.added + r.changes.modified + r.changes.deleted} files changed` : '';
  const found = r.detections?.length ? ` · ${r.verdict ?? 'WARN'}: ${r.detections.join(', ')}` : '';
  return `iteration ${r.n} → ${r.outcome} · ${agent}${claim} · check ${checkText(r)}${files}${found} · ${formatDuration(r.durationMs)}`;
}

/** The check column of a record: passed, failed (exit n), timed out or not run. */
export function checkText(r: IterationRecord): string {
  if (!r.check) return 'not run';
  if (r.check.passed) return 'passed';
  return r.check.timedOut ? 'timed out' : `failed (exit ${r.check.exitCode ?? '-'})`;
}

/** A short excerpt of the feedback the next prompt carries: its first line and the first lines of tool output. */
export function feedbackExcerpt(feedback: string[], width = 110): string[] {
  const first = feedback[0];
  if (!first) return [];
  const clip = (s: string): string => (s.length > width ? `${s.slice(0, width - 1)}…` : s);
  const lines = first.split('\n');
  const out = [clip(lines[0])];
  const outputAt = lines.findIndex((l) => /^(Output|Last output):$/.test(l.trim()));
  if (outputAt >= 0)
    out.push(
      ...lines
        .slice(outputAt + 1)
        .filter((l) => l.trim())
        .slice(0, 2)
        .map((l) => `| ${clip(l.trim())}`),
    );
  return out;
}

/** One line saying how a loop ended. */
export function resultLine(r: LoopResult): string {
  const by = r.by ? ` (${r.by})` : '';
  if (r.status === 'accepted')
    return `accepted by ${r.acceptedBy ?? 'check'}${by} after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}: ${r.reason}`;
  return `${r.status}${by} after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}: ${r.reason}`;
}

/** Where a loop stands, as `iteration 2/10 · agent · running` (the iteration being worked on while it runs). */
export function positionLine(s: LoopState, o: { checking?: boolean } = {}): string {
  if (s.phase === 'done') return `iteration ${s.iteration}/${s.maxIterations} · done`;
  if (s.phase === 'starting')
    return `starting (${s.maxIterations ? `max ${s.maxIterations} iterations` : 'validating input'})`;
  const working = s.phase === 'agent' || s.phase === 'checking';
  const n = working ? s.iteration + 1 : s.iteration;
  // The loop records an iteration before it moves to the next phase, so "checking" is also seen briefly after the
  // check ran: followers pass checking=false and show it as the agent phase of the next iteration.
  const phase = s.phase === 'checking' && o.checking === false ? 'agent' : s.phase;
  const where = phase === s.status ? phase : `${phase} · ${s.status}`;
  return `iteration ${n}/${s.maxIterations} · ${where}`;
}

/**
 * Polls a loop until it ends, printing what changes; returns its result. A workflow that failed before recording a
 * result (e.g. invalid input found by the worker) yields a `failed` result with the failure's message.
 */
export async function followLoop(client: Client, loopId: string, o: FollowOptions): Promise<LoopResult> {
  const t0 = Date.now();
  const interval = o.intervalMs ?? 1000;
  const prefix = o.label ? `${o.label} ` : '';
  const stamp = (): string => {
    const s = Math.floor((Date.now() - t0) / 1000);
    return `[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
  };
  const say = (text: string): void => o.print(`${stamp()} ${prefix}${text}`);
  const indent = ' '.repeat(stamp().length + 1 + prefix.length);
  const handle = client.workflow.getHandle(loopId);
  let lastPosition = '';
  let lastRecord = 0;
  let lastGate = '';
  const seenSignals = new Set<string>();
  let noStateSince = Date.now();
  let hinted = false;

  const show = async (s: LoopState): Promise<void> => {
    for (const r of s.records.filter((x) => x.n > lastRecord)) {
      say(recordLine(r));
      if (r.n === s.iteration && r.outcome !== 'completed')
        feedbackExcerpt(s.pendingFeedback).forEach((l, i) =>
          o.print(`${indent}  ${i === 0 ? 'feedback:' : '         '} ${l}`),
        );
      lastRecord = r.n;
    }
    for (const ev of s.signals) {
      const key = JSON.stringify(ev);
      if (seenSignals.has(key)) continue;
      seenSignals.add(key);
      say(`signal ${ev.name}${ev.by ? ` by ${ev.by}` : ''}: ${ev.applied ? 'applied' : 'IGNORED'} (${ev.note})`);
    }
    const position = positionLine(s, { checking: false });
    if (position !== lastPosition && !TERMINAL_STATUSES.includes(s.status)) {
      say(position);
      lastPosition = position;
    }
    if (s.pendingGate && s.pendingGate.id !== lastGate) {
      lastGate = s.pendingGate.id;
      for (const l of gateLines(loopId, s.pendingGate, o.connectionFlags)) o.print(`${indent}${l}`);
      await o.onGate?.(s.pendingGate, s);
    }
  };

  for (;;) {
    let closed: string | undefined;
    try {
      const d = await handle.describe();
      closed = d.status.name === 'RUNNING' ? undefined : d.status.name;
    } catch (e) {
      if ((e as Error).name === 'WorkflowNotFoundError') throw new LoopNotFoundError(loopId, client.options.namespace);
      throw e;
    }
    const state = await withTimeout(handle.query<LoopState>('status'), 5000);
    if (state) {
      noStateSince = Date.now();
      await show(state);
      if (state.result) {
        say(resultLine(state.result));
        return state.result;
      }
    } else if (!closed && !hinted && Date.now() - noStateSince > 10_000) {
      hinted = true;
      say(
        `no worker has picked the loop up yet: start one with \`ralph worker\`${o.taskQueue ? ` (task queue ${o.taskQueue})` : ''}`,
      );
    }
    if (closed) {
      const result = await ended(handle, loopId, closed);
      say(resultLine(result));
      return result;
    }
    await sleep(interval);
  }
}

async function ended(
  handle: ReturnType<Client['workflow']['getHandle']>,
  loopId: string,
  closed: string,
): Promise<LoopResult> {
  try {
    return (await handle.result()) as LoopResult;
  } catch (e) {
    const err = e as Error & { cause?: Error & { cause?: Error } };
    const reason = err.cause?.message ?? err.message;
    return {
      loopId,
      status: closed === 'TERMINATED' || closed === 'CANCELED' ? 'aborted' : 'failed',
      reason: `workflow ${closed.toLowerCase()}: ${reason}`,
      iterations: 0,
      totals: {} as LoopResult['totals'],
      stateFile: '',
    };
  }
}

/** How a followed project stood when `ralph start --prd --follow` stopped watching it. */
export interface ProjectFollowResult {
  projectId: string;
  /** `waiting_operator`: only blocked tasks are left; `failed`: the workflow failed (an invalid PRD, say). */
  status: 'done' | 'finished_with_blocked' | 'aborted' | 'waiting_operator' | 'failed';
  reason: string;
  done: string[];
  blocked: { id: string; reason?: string; details?: string }[];
  attempts: number;
}

/** Options of {@link followProject}. */
export interface FollowProjectOptions {
  /** Where progress lines go. */
  print: (line: string) => void;
  /** Poll interval (default 1 s). */
  intervalMs?: number;
  /** Connection flags to repeat in the commands shown for blocked tasks. */
  connectionFlags?: string;
  /** Task queue named in the hint printed while no worker answers. */
  taskQueue?: string;
}

/** One line about an ended attempt: task, attempt, outcome, timeout, and BLOCKED when it was the task's last. */
export function attemptLine(task: { id: string; status: string; blockReason?: string }, a: AttemptRecord): string {
  const last = task.status === 'blocked' ? ` → BLOCKED (${task.blockReason ?? 'unknown'})` : '';
  const reason = a.reason ? ` · ${a.reason.length > 80 ? `${a.reason.slice(0, 79)}…` : a.reason}` : '';
  return `${task.id} attempt ${a.n} → ${a.outcome ?? 'running'} · timeout ${a.timeoutSeconds} s${reason}${last}`;
}

/**
 * Polls a project's task table, printing a line per attempt end, until the project ends or waits for an operator
 * (then the blocked tasks and the commands that unblock them); returns where it stands.
 */
export async function followProject(
  client: Client,
  projectId: string,
  o: FollowProjectOptions,
): Promise<ProjectFollowResult> {
  const t0 = Date.now();
  const stamp = (): string => {
    const s = Math.floor((Date.now() - t0) / 1000);
    return `[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
  };
  const say = (text: string): void => o.print(`${stamp()} ${text}`);
  const handle = client.workflow.getHandle(projectId);
  const seen = new Set<string>();
  let last: ProjectState | undefined;
  let noStateSince = Date.now();
  let hinted = false;
  const summary = (s: ProjectState | undefined, status: ProjectFollowResult['status'], reason: string) => ({
    projectId,
    status,
    reason,
    done: s?.tasks.filter((t) => t.status === 'done').map((t) => t.id) ?? [],
    blocked:
      s?.tasks
        .filter((t) => t.status === 'blocked')
        .map((t) => ({ id: t.id, reason: t.blockReason, details: t.blockDetails })) ?? [],
    attempts: s?.attemptsRun ?? 0,
  });

  for (;;) {
    let closed: string | undefined;
    try {
      const d = await handle.describe();
      closed = d.status.name === 'RUNNING' ? undefined : d.status.name;
    } catch (e) {
      if ((e as Error).name === 'WorkflowNotFoundError')
        throw new ProjectNotFoundError(projectId, client.options.namespace);
      throw e;
    }
    const state = await withTimeout(handle.query<ProjectState>('tasks'), 5000);
    if (state) {
      noStateSince = Date.now();
      last = state;
      for (const t of state.tasks)
        for (const a of t.attempts) {
          const key = `${t.id}#${a.n}`;
          if (!a.outcome || seen.has(key)) continue;
          seen.add(key);
          // Only the task's latest attempt can have blocked it.
          const latest = a.n === t.attempts.length;
          say(attemptLine(latest ? t : { ...t, status: 'pending' }, a));
        }
      if (state.status === 'waiting_operator') {
        const r = summary(state, 'waiting_operator', 'only blocked tasks are left: the project waits for an operator');
        say(`project waits for an operator: ${r.done.length} done, ${r.blocked.length} blocked`);
        for (const l of blockedLines(state, { suggest: true, connectionFlags: o.connectionFlags })) o.print(`  ${l}`);
        const tail = o.connectionFlags ? ` ${o.connectionFlags}` : '';
        o.print(`  or retry every blocked task once: ralph retry-blocked ${shellQuote(projectId)}${tail}`);
        return r;
      }
    } else if (!closed && !hinted && Date.now() - noStateSince > 10_000) {
      hinted = true;
      say(
        `no worker has picked the project up yet: start one with \`ralph worker\`${o.taskQueue ? ` (task queue ${o.taskQueue})` : ''}`,
      );
    }
    if (closed) {
      const r = await handle.result().then(
        (res: ProjectResult): ProjectFollowResult => ({ ...res, reason: `workflow ${closed.toLowerCase()}` }),
        (e: Error & { cause?: Error }) =>
          summary(
            last,
            closed === 'TERMINATED' || closed === 'CANCELED' ? 'aborted' : 'failed',
            `workflow ${closed.toLowerCase()}: ${e.cause?.message ?? e.message}`,
          ),
      );
      say(projectResultLine(r));
      return r;
    }
    await sleep(o.intervalMs ?? 1000);
  }
}

/** One line saying how a project ended. */
export function projectResultLine(r: ProjectFollowResult): string {
  const counts = `${r.done.length} done, ${r.blocked.length} blocked, ${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`;
  if (r.status === 'failed' || r.status === 'aborted') return `project ${r.status} (${counts}): ${r.reason}`;
  return `project ${r.status.replace(/_/g, ' ')}: ${counts}`;
}
