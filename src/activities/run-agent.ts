import { recoverSwap } from './verification/swap';
import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { AgentSpec } from '../config/loop-input';
import { detectCompletionClaim, parseClaimedFiles, tail } from '../core/claims';
import { AGENT_OVERLOADED_TYPE, type AgentFailureKind, classifyAgentFailure } from '../core/agent-failure';
import { ErrorTypes } from '../core/constants';
import { resolveEnvRefs } from '../core/env-refs';
import { buildPrompt } from '../core/prompt';
import { detectQuestion, type AgentQuestion, type PendingAnswer } from '../core/questions';
import type { UsageRecord } from '../core/loop-types';
import { getAdapter } from './agents';
import { probeSandbox, removeSandboxTmp, wrapInSandbox } from './agents/sandbox';
import { parseSandboxDenials, type SandboxDenial, type SandboxOptions, type SandboxStatus } from '../core/sandbox';
import { drainHookSpool } from '../state/hook-spool';
import { attemptSuffix, iterationDir, writeJsonAtomic } from '../state/artifacts';
import { killLeftover, readTail, resolveExecutable, runLogged } from './process';
import { createCheckpoint, listCheckpoints, rollbackToCheckpoint } from './workspace/checkpoint';
import { observeAgentRun } from '../telemetry/metrics';
import { logLoopEvent, registerSecrets } from '../telemetry/logger';
import { appendHookLog } from '../state/hook-log';
import { beat, livenessEveryMs } from './liveness';
import { runCompletionCheck, type CheckCompletionResult } from './check-completion';
import { inspectIteration, type InspectIterationInput, type InspectIterationResult } from './inspect-iteration';

/** Input of {@link runAgent}. */
export interface RunAgentInput {
  loopId: string;
  iteration: number;
  /** 1 for the first run of this iteration; +1 for each re-run after a usage limit. */
  run: number;
  maxIterations: number;
  workspace: string;
  stateDir: string;
  agent: AgentSpec;
  prompt?: string;
  promptFile?: string;
  feedback: string[];
  guidance?: string;
  promise?: string;
  checkCommand?: string;
  /** Extra prompt sections (reinforcement, PDARE adaptation), in order. */
  sections?: string[];
  /** A human's answer to the agent's last question, for the prompt. */
  answer?: PendingAnswer;
  /**
   * Questions the loop allows and has left (absent in loops started before questions). With some left, a run that
   * asks skips the fused completion check: a question never accepts work.
   */
  questions?: { max: number; left: number };
  /**
   * Pre-run checkpoint of the workspace: attempt 1 creates it; a retried attempt (worker crash, timeout) first rolls
   * the workspace back to it, so half-applied changes of the failed attempt never leak into the retry.
   */
  checkpoint?: { label: string };
  /**
   * Set when the workflow schedules this run again after waiting for the host's worker (the earlier activity never
   * started, or died with its worker): the run starts from its pre-run checkpoint, as a retried attempt does. The
   * number counts the re-schedules; it adds to the attempt number the agent sees, and names the run's artifacts.
   */
  resume?: number;
  /** Ralph's tool-call hooks (audit log, warnings or denials, rollback checkpoints) for agents that support them. */
  hooks?: { enabled: boolean; policy: 'warn' | 'deny' };
  /** The agent sandbox (absent in loops started before it: no sandbox). */
  sandbox?: SandboxOptions;
  /**
   * A fused iteration (patch `fused-iteration-v1`): what this activity also runs once the agent has finished, so an
   * iteration is one activity instead of an activity, a local activity and another activity. Only after a run that
   * returns normally and hit no usage limit; otherwise the workflow runs them itself, as before.
   */
  then?: RunAgentThen;
}

/** What a fused iteration runs after the agent, in this order (see {@link RunAgentInput.then}). */
export interface RunAgentThen {
  /** The agent's own deadline: the activity's startToClose also covers the detection pass and the check. */
  agentTimeoutSeconds: number;
  /** The detection pass (anti-laziness layer on): post-run checkpoint, diff, detectors. */
  inspect?: Pick<InspectIterationInput, 'pre' | 'post' | 'detectors' | 'pushTo'>;
  /** The completion check: after every iteration, or only when the agent claims done. */
  check?: { command: string; timeoutSeconds: number; on: 'claim' | 'every-iteration' };
}

/** Result of {@link runAgent}: small on purpose (history); the output is in the artifact files. */
export interface RunAgentResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  attempt: number;
  artifactDir: string;
  promptPath: string;
  stdoutPath: string;
  stderrPath: string;
  outputBytes: number;
  claim: { claimed: boolean; via?: 'promise' | 'exit_signal' };
  claimedFiles: string[];
  /** The question the agent asked (a `<question>` block or `STATUS: BLOCKED`), when it asked one. */
  question?: AgentQuestion;
  usage?: UsageRecord;
  usageLimit?: { message: string; resetAt?: number };
  /**
   * Why the run failed, when it did: `task` is the agent's own failure; the others (auth, usage_limit, overloaded,
   * binary_missing) are infrastructure, which the anti-laziness detectors skip.
   */
  failureKind?: AgentFailureKind;
  /** The end of the agent's answer, for feedback and status. */
  finalTextTail: string;
  /** Set only between reading the run and reporting its failure (never in the returned result or in history). */
  failureMessage?: string;
  /** How the run was sandboxed, and the writes the sandbox refused as the agent's output reports them. */
  sandbox?: SandboxStatus & { denied?: SandboxDenial[] };
  /** The pre-run checkpoint (when asked for), and what a retry restored from it. */
  checkpoint?: { label: string; ref: string; commit: string | null; restored?: number; removed?: number };
  /** Fused iteration: the detection pass's result, or why it failed (the workflow then runs it itself). */
  inspected?: InspectIterationResult;
  inspectError?: string;
  /** Fused iteration: the completion check's result, when it was due. */
  check?: CheckCompletionResult;
}

/** Largest stdout we parse in full; beyond it only the end is parsed (the result is at the end). */
const PARSE_LIMIT_BYTES = 32 * 1024 * 1024;
/** A usage-limit message inside a long successful answer is the agent talking, not the limit. */
const USAGE_LIMIT_TEXT_MAX = 2000;

/**
 * Runs the agent once for an iteration: writes the prompt, spawns the agent CLI in its own process group in the
 * workspace, streams its output to artifact files, heartbeats with the output size, kills the group on cancellation or
 * deadline, and returns a small parsed result.
 */
export async function runAgent(input: RunAgentInput): Promise<RunAgentResult> {
  const ctx = Context.current();
  // A run scheduled again after a wait for the host continues the count of the runs before it.
  const attempt = ctx.info.attempt + (input.resume ?? 0);
  // Before anything is logged: the agent's env values are secrets for every sink (logs, audit trail, console).
  registerSecrets(Object.values(input.agent.env ?? {}));
  if (!fs.existsSync(input.workspace))
    throw ApplicationFailure.nonRetryable(
      `workspace ${input.workspace} no longer exists: recreate it or abort the loop`,
      ErrorTypes.WorkspaceNotFound,
    );
  const dir = iterationDir(input.stateDir, input.loopId, input.iteration);
  fs.mkdirSync(dir, { recursive: true });
  // A verification the worker died in left the workspace swapped: the agent gets its work back first.
  await recoverSwap(input.stateDir, input.loopId);
  // A fused iteration whose agent finished in an earlier attempt (the worker died in the detection pass or the check):
  // the agent's work is kept, and only what came after it runs again.
  const finished =
    input.then && attempt > 1 ? readAgentFinished(dir, input, ctx.info.workflowExecution?.runId ?? '') : undefined;
  if (finished) {
    ctx.log.warn(
      `attempt ${attempt}: the agent finished in attempt ${finished.attempt}; running only the checks again`,
    );
    return afterAgent(ctx, input, finished.result);
  }
  const pidFile = path.join(dir, 'agent.pid');
  // A previous attempt's worker may have died with the agent still running: stop it before running again.
  const leftover = killLeftover(pidFile);
  if (leftover) ctx.log.warn('killed leftover agent process group from a previous attempt', { pid: leftover });
  const checkpoint = input.checkpoint ? await preRunCheckpoint(input, attempt) : undefined;
  if (checkpoint?.restored || checkpoint?.removed)
    ctx.log.warn(`attempt ${attempt}: workspace restored to checkpoint ${checkpoint.label} before retrying`, {
      restored: checkpoint.restored,
      removed: checkpoint.removed,
    });

  const sfx = attemptSuffix(input.run, ctx.info.attempt) + (input.resume ? `.resume${input.resume}` : '');
  const run = prepareRun(input, dir, sfx, attempt);
  let r: Awaited<ReturnType<typeof runLogged>>;
  try {
    r = await spawnAgent(ctx, input, run, pidFile);
  } finally {
    await endSandboxedRun(input, run);
  }
  const result = readRun(input, run, r, attempt, checkpoint);
  recordRun(input, result, attempt, run.sfx);
  throwOnFailure(result);
  if (!input.then || result.usageLimit) return result;
  writeJsonAtomic(agentFinishedPath(dir, input.run), {
    runId: ctx.info.workflowExecution?.runId ?? '',
    attempt,
    result,
  } satisfies AgentFinished);
  return afterAgent(ctx, input, result);
}

/** What one run of the agent is started with. */
interface PreparedRun {
  dir: string;
  sfx: string;
  promptPath: string;
  adapter: ReturnType<typeof getAdapter>;
  file: string;
  args: string[];
  env: Record<string, string>;
  stdin?: string;
  stdoutPath: string;
  stderrPath: string;
  sandbox: SandboxStatus;
}

/**
 * How this run is sandboxed: `off` when the loop says so (or predates the sandbox), `enforced` where the sandbox
 * starts; where it cannot, `unavailable` (auto) or SandboxUnavailable (enforce), with the line naming what to install.
 */
function sandboxFor(input: RunAgentInput): SandboxStatus {
  if (!input.sandbox || input.sandbox.mode === 'off') return { state: 'off' };
  const status = probeSandbox();
  if (status.state !== 'enforced' && input.sandbox.mode === 'enforce')
    throw ApplicationFailure.nonRetryable(
      `sandbox.mode is enforce but the agent sandbox cannot start on this worker: ${status.reason}`,
      ErrorTypes.SandboxUnavailable,
    );
  return status;
}

/** After a sandboxed run: its hooks' spooled entries move into the loop's logs, its temp folder goes. */
async function endSandboxedRun(input: RunAgentInput, run: PreparedRun): Promise<void> {
  if (run.sandbox.state !== 'enforced') return;
  const spool = run.env.RALPH_HOOK_SPOOL;
  if (spool) await drainHookSpool(spool, input.stateDir, input.loopId).catch(() => 0);
  removeSandboxTmp(run.env);
}

/** Writes the prompt and resolves the command, its executable and its environment (AgentNotFound when missing). */
function prepareRun(input: RunAgentInput, dir: string, sfx: string, attempt: number): PreparedRun {
  const task = input.prompt ?? readPromptFile(input.promptFile);
  const prompt = buildPrompt({
    task,
    loopId: input.loopId,
    iteration: input.iteration,
    maxIterations: input.maxIterations,
    feedback: input.feedback,
    guidance: input.guidance,
    promise: input.promise,
    checkCommand: input.checkCommand,
    sections: input.sections,
    answer: input.answer,
    questions: input.questions,
  });
  const promptPath = path.join(dir, `prompt${sfx}.md`);
  fs.writeFileSync(promptPath, prompt);

  const adapter = getAdapter(input.agent.adapter);
  const sandbox = sandboxFor(input);
  const cmd = adapter.build({
    prompt,
    promptFile: promptPath,
    workspace: input.workspace,
    spec: input.agent,
    loopId: input.loopId,
    iteration: input.iteration,
    artifactDir: dir,
    stateDir: input.stateDir,
    hooks: input.hooks,
    sandboxed: sandbox.state === 'enforced',
  });
  let agentEnv: Record<string, string>;
  try {
    // `${NAME}` values come from the worker's environment: secrets stay out of the loop input (workflow history).
    agentEnv = resolveEnvRefs(input.agent.env, process.env);
  } catch (e) {
    throw ApplicationFailure.nonRetryable((e as Error).message, ErrorTypes.AgentConfigError);
  }
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...agentEnv,
    ...cmd.env,
    RALPH_LOOP_ID: input.loopId,
    RALPH_ITERATION: String(input.iteration),
    RALPH_RUN: String(input.run),
    RALPH_ATTEMPT: String(attempt),
    RALPH_WORKSPACE: input.workspace,
    RALPH_ARTIFACT_DIR: dir,
    RALPH_PROMPT_FILE: promptPath,
  };
  const file = resolveExecutable(cmd.file, input.workspace, env.PATH);
  if (!file)
    throw ApplicationFailure.nonRetryable(
      `agent executable "${cmd.file}" (adapter ${input.agent.adapter}) was not found on the worker's PATH: install it or pass --agent-binary <path> (agent.binary)`,
      ErrorTypes.AgentNotFound,
    );
  const spawn =
    input.sandbox && sandbox.state === 'enforced'
      ? sandboxedSpawn({ file, args: cmd.args, env, input, options: input.sandbox, dir, sfx })
      : { file, args: cmd.args };
  return {
    dir,
    sfx,
    promptPath,
    adapter,
    file: spawn.file,
    args: spawn.args,
    env,
    sandbox,
    stdin: cmd.input,
    stdoutPath: path.join(dir, `agent.stdout${sfx}.log`),
    stderrPath: path.join(dir, `agent.stderr${sfx}.log`),
  };
}

/** The run's command inside the sandbox; adds the sandbox's temp folder and hook spool to `env`. */
function sandboxedSpawn(o: {
  file: string;
  args: string[];
  env: Record<string, string>;
  input: RunAgentInput;
  options: SandboxOptions;
  dir: string;
  sfx: string;
}): { file: string; args: string[] } {
  const wrapped = wrapInSandbox({
    file: o.file,
    args: o.args,
    env: o.env,
    adapter: o.input.agent.adapter,
    workspace: o.input.workspace,
    stateDir: o.input.stateDir,
    artifactDir: o.dir,
    sfx: o.sfx,
    options: o.options,
  });
  Object.assign(o.env, wrapped.env, {
    // srt points the agent's TMPDIR here (it reads CLAUDE_CODE_TMPDIR), not at the shared /tmp/claude.
    CLAUDE_CODE_TMPDIR: wrapped.env.TMPDIR,
    RALPH_HOOK_SPOOL: path.join(wrapped.env.TMPDIR, 'hook-spool.jsonl'),
    RALPH_SANDBOX: 'enforced',
  });
  return { file: wrapped.file, args: wrapped.args };
}

/** Runs the agent to its end, its deadline or a cancellation (which throws, the process group killed). */
async function spawnAgent(
  ctx: Context,
  input: RunAgentInput,
  run: PreparedRun,
  pidFile: string,
): Promise<Awaited<ReturnType<typeof runLogged>>> {
  const timeoutMs = ctx.info.startToCloseTimeoutMs;
  const hbTimeout = ctx.info.heartbeatTimeoutMs ?? 0;
  const r = await runLogged({
    file: run.file,
    args: run.args,
    cwd: input.workspace,
    env: run.env,
    input: run.stdin,
    stdoutPath: run.stdoutPath,
    stderrPath: run.stderrPath,
    // Stop the agent ourselves just before Temporal's startToClose timeout so it never outlives its attempt (a fused
    // iteration: at the agent's own deadline, which leaves the rest of the timeout to the checks).
    deadlineMs: input.then
      ? Math.max(1000, Math.min(input.then.agentTimeoutSeconds * 1000, timeoutMs || Infinity) - 500)
      : timeoutMs
        ? Math.max(1000, timeoutMs - 500)
        : 0,
    heartbeatEveryMs: hbTimeout ? livenessEveryMs(hbTimeout) : 5000,
    onHeartbeat: (p) => beat(ctx, p),
    signal: ctx.cancellationSignal,
    pidFile,
  });
  if (r.cancelled) throw new CancelledFailure('agent run cancelled; its process group was killed');
  if (r.spawnError)
    throw ApplicationFailure.nonRetryable(
      `could not start agent "${run.file}": ${r.spawnError}: install it or pass --agent-binary <path> (agent.binary)`,
      ErrorTypes.AgentNotFound,
    );
  return r;
}

/** The run's result from the agent's output: claim, files it names, usage, usage limit, why it failed. */
function readRun(
  input: RunAgentInput,
  run: PreparedRun,
  r: Awaited<ReturnType<typeof runLogged>>,
  attempt: number,
  checkpoint: RunAgentResult['checkpoint'],
): RunAgentResult {
  const stdout = readTail(run.stdoutPath, PARSE_LIMIT_BYTES);
  const stderr = readTail(run.stderrPath, 1024 * 1024);
  const parsed = run.adapter.parse({ stdout, stderr, exitCode: r.exitCode, now: Date.now() });
  const claim = detectCompletionClaim(parsed.finalText, input.promise);
  // Agents report absolute paths for their edits and relative ones in prose: compare them workspace-relative.
  const rel = (f: string): string => (path.isAbsolute(f) ? path.relative(input.workspace, f) : f.replace(/^\.\//, ''));
  const claimedFiles = [...new Set([...(parsed.filesTouched ?? []), ...parseClaimedFiles(parsed.finalText)].map(rel))];
  const usageLimit =
    parsed.usageLimit && (r.exitCode !== 0 || parsed.finalText.trim().length <= USAGE_LIMIT_TEXT_MAX)
      ? parsed.usageLimit
      : undefined;
  const failure = r.timedOut
    ? undefined
    : classifyAgentFailure({
        adapter: input.agent.adapter,
        exitCode: r.exitCode,
        finalText: parsed.finalText,
        stderr: tail(stderr, 8000),
        isError: parsed.isError,
        usageLimit,
        apiStatus: parsed.apiStatus,
      });
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    attempt,
    artifactDir: run.dir,
    promptPath: run.promptPath,
    stdoutPath: run.stdoutPath,
    stderrPath: run.stderrPath,
    outputBytes: r.bytes,
    claim,
    claimedFiles: claimedFiles.slice(0, 100),
    ...questionOf(parsed.finalText),
    usage: parsed.usage
      ? {
          inputTokens: parsed.usage.inputTokens,
          outputTokens: parsed.usage.outputTokens,
          costUsd: parsed.usage.costUsd,
        }
      : undefined,
    usageLimit,
    failureKind: failure?.kind,
    failureMessage: failure?.message,
    finalTextTail: tail(parsed.finalText || stderr, 1500),
    checkpoint,
    sandbox: sandboxResult(run.sandbox, stdout, stderr),
  };
}

/** `{ question }` when the answer asks one, else nothing (no key: the result in history stays as before). */
function questionOf(finalText: string): { question?: AgentQuestion } {
  const question = detectQuestion(finalText);
  return question ? { question } : {};
}

/** The run's sandbox status; a sandboxed run also lists the writes its output says were refused. */
function sandboxResult(status: SandboxStatus, stdout: string, stderr: string): RunAgentResult['sandbox'] {
  if (status.state !== 'enforced') return status;
  const denied = parseSandboxDenials(`${tail(stdout, 256 * 1024)}\n${tail(stderr, 256 * 1024)}`, 20);
  return denied.length ? { ...status, denied } : status;
}

/** Keeps the run: its result file, the metrics, the audit trail's `agent` entry, the log event. */
function recordRun(input: RunAgentInput, result: RunAgentResult, attempt: number, sfx: string): void {
  writeJsonAtomic(path.join(result.artifactDir, `agent-result${sfx}.json`), { ...result, failureMessage: undefined });
  observeAgentRun(input.agent.adapter, result.durationMs, result.usage);
  appendHookLog(input.stateDir, [
    {
      at: new Date(Date.now() - result.durationMs).toISOString(),
      loopId: input.loopId,
      iteration: input.iteration,
      type: 'agent',
      name: `${input.agent.adapter} (run ${input.run}, attempt ${attempt})`,
      outcome: result.timedOut ? 'timed_out' : `exit ${result.exitCode ?? result.signal}`,
      durationMs: result.durationMs,
      detail: result.claim.claimed ? `claimed done (${result.claim.via})` : undefined,
    },
  ]);
  logLoopEvent('agent.finished', {
    loopId: input.loopId,
    iteration: input.iteration,
    agent: input.agent.adapter,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    ms: result.durationMs,
  });
}

/** Bad credentials, an overloaded API and our own deadline end the run with their failure types. */
function throwOnFailure(withMessage: RunAgentResult): void {
  const { failureMessage: message, ...result } = withMessage;
  delete withMessage.failureMessage;
  // Bad credentials never fix themselves: the loop fails at once with the line that says how to fix them.
  if (result.failureKind === 'auth')
    throw ApplicationFailure.create({
      message: message ?? 'agent authentication failed',
      type: ErrorTypes.AgentAuthFailed,
      nonRetryable: true,
      details: [result],
    });
  // An overloaded API is retried by Temporal's retry policy with backoff (from the pre-run checkpoint): not an
  // iteration of its own.
  if (result.failureKind === 'overloaded')
    throw ApplicationFailure.create({
      message: message ?? 'model API overloaded',
      type: AGENT_OVERLOADED_TYPE,
      nonRetryable: false,
      details: [result],
    });
  if (result.timedOut)
    throw ApplicationFailure.create({
      message: `agent timed out after ${Math.round(result.durationMs / 1000)}s and its process group was killed`,
      type: ErrorTypes.AgentTimeout,
      nonRetryable: true,
      details: [result],
    });
}

/** The agent of a fused iteration's run finished: written before the detection pass and the check run. */
interface AgentFinished {
  /** The workflow run: a loop id started again never takes another loop's agent run for its own. */
  runId: string;
  attempt: number;
  result: RunAgentResult;
}

const agentFinishedPath = (dir: string, run: number): string =>
  path.join(dir, `agent-finished${run > 1 ? `.run${run}` : ''}.json`);

function readAgentFinished(dir: string, input: RunAgentInput, runId: string): AgentFinished | undefined {
  try {
    const f = JSON.parse(fs.readFileSync(agentFinishedPath(dir, input.run), 'utf8')) as AgentFinished;
    return f.runId === runId && typeof f.attempt === 'number' && f.result ? f : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fused iteration's work after the agent: the detection pass (a failure is reported, and the workflow runs the pass
 * itself), then the completion check when it is due. The agent's claim is read from its output, as the workflow does.
 */
async function afterAgent(ctx: Context, input: RunAgentInput, result: RunAgentResult): Promise<RunAgentResult> {
  const then = input.then!;
  const out: RunAgentResult = { ...result };
  const base = {
    loopId: input.loopId,
    iteration: input.iteration,
    workspace: input.workspace,
    stateDir: input.stateDir,
  };
  if (then.inspect && result.checkpoint) {
    try {
      out.inspected = await inspectIteration({
        ...base,
        ...then.inspect,
        // The pre-run checkpoint of run 1 (a usage-limit re-run records its own, under another label).
        preCommit: result.checkpoint.label === then.inspect.pre ? result.checkpoint.commit : undefined,
        exitCode: result.exitCode,
        claimed: result.claim.claimed ?? false,
        claimedFiles: result.claimedFiles,
        finalTextTail: result.finalTextTail,
        promptPath: result.promptPath,
      });
    } catch (e) {
      out.inspectError = (e as Error).message || String(e);
    }
  }
  // A question the loop will put to a human is not a claim: the check would only cost time.
  const asks = !!result.question && (input.questions?.left ?? 0) > 0;
  if (then.check && !asks && (then.check.on === 'every-iteration' || result.claim.claimed))
    out.check = await runCompletionCheck(ctx, {
      ...base,
      run: 1,
      command: then.check.command,
      timeoutSeconds: then.check.timeoutSeconds,
    });
  return out;
}

/**
 * Attempt 1 records the workspace as the iteration's pre-run checkpoint. A later attempt restores it first (and
 * creates it if the failed attempt died before it could): the retry starts from exactly what attempt 1 saw.
 */
async function preRunCheckpoint(input: RunAgentInput, attempt: number): Promise<RunAgentResult['checkpoint']> {
  const at = {
    workspace: input.workspace,
    stateDir: input.stateDir,
    loopId: input.loopId,
    label: input.checkpoint!.label,
  };
  if (attempt > 1) {
    try {
      const r = await rollbackToCheckpoint(at);
      const info = (await listCheckpoints(at)).checkpoints.find((c) => c.label === at.label);
      return {
        label: at.label,
        ref: info?.ref ?? '',
        commit: info?.commit ?? null,
        restored: r.restored.length,
        removed: r.removed.length,
      };
    } catch (e) {
      if ((e as Error).name !== 'CheckpointNotFoundError') throw e;
    }
  }
  const c = await createCheckpoint(at);
  return { label: at.label, ref: c.ref, commit: c.commit };
}

function readPromptFile(file: string | undefined): string {
  if (!file) throw ApplicationFailure.nonRetryable('no prompt or promptFile given', ErrorTypes.InvalidInput);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw ApplicationFailure.nonRetryable(
      `prompt file ${file} can't be read (${(e as Error).message}): fix input.promptFile`,
      ErrorTypes.PromptFileNotFound,
    );
  }
}
