import path from 'node:path';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { attemptSuffix, iterationDir } from '../state/artifacts';
import { readTail, runLogged } from './process';
import { appendHookLog } from '../state/hook-log';
import { logLoopEvent } from '../telemetry/logger';
import { beat } from './liveness';

/** Input of {@link checkCompletion}. */
export interface CheckCompletionInput {
  loopId: string;
  iteration: number;
  run: number;
  workspace: string;
  stateDir: string;
  command: string;
  timeoutSeconds: number;
}

/** Result of {@link checkCompletion}. */
export interface CheckCompletionResult {
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  outputPath: string;
  /** The end of the command's output (stdout then stderr), for feedback. */
  outputTail: string;
}

/** Where and how {@link runCheckCommand} runs a completion command. */
export interface RunCheckCommandInput {
  command: string;
  /** Folder to run it in: the workspace, or a verification tree. */
  cwd: string;
  loopId: string;
  timeoutSeconds: number;
  /** Its stdout and stderr go to these files. */
  outputPath: string;
  errPath: string;
  /** Variables added to its environment (the verification tree's bytecode prefix). */
  env?: Record<string, string>;
  /** Called every 2 s while it runs (an activity's heartbeat). */
  onHeartbeat?: (p: unknown) => void;
  /** Aborting it kills the command's process group. */
  signal?: AbortSignal;
}

/**
 * Runs a completion command (`sh -c`) in a folder and reads its verdict: passed only on exit 0 within the time limit.
 * Throws CancelledFailure when `signal` aborts it.
 */
export async function runCheckCommand(input: RunCheckCommandInput): Promise<CheckCompletionResult> {
  const r = await runLogged({
    file: input.command,
    args: [],
    shell: true,
    cwd: input.cwd,
    env: { ...(process.env as Record<string, string>), CI: 'true', RALPH_LOOP_ID: input.loopId, ...input.env },
    stdoutPath: input.outputPath,
    stderrPath: input.errPath,
    deadlineMs: input.timeoutSeconds * 1000,
    heartbeatEveryMs: 2000,
    onHeartbeat: input.onHeartbeat,
    signal: input.signal,
  });
  if (r.cancelled) throw new CancelledFailure('completion check cancelled');
  const outputTail = (readTail(input.outputPath, 3000) + '\n' + readTail(input.errPath, 3000)).trim();
  return {
    passed: !r.timedOut && !r.spawnError && r.exitCode === 0,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    outputPath: input.outputPath,
    outputTail: r.spawnError ? `could not run the check: ${r.spawnError}` : outputTail.slice(-3000),
  };
}

/**
 * Runs the completion command (`sh -c`) in the workspace: the loop completes only when it exits 0. A command that
 * times out or can't start never counts as passing. Output goes to the iteration's `check.log`.
 */
export async function checkCompletion(input: CheckCompletionInput): Promise<CheckCompletionResult> {
  return runCompletionCheck(Context.current(), input);
}

/**
 * The completion check of {@link checkCompletion}, also run by `runAgent` right after the agent (a fused iteration):
 * the command in the workspace, its output in the iteration's `check.log`, a line in the hook log and the event log.
 */
export async function runCompletionCheck(ctx: Context, input: CheckCompletionInput): Promise<CheckCompletionResult> {
  const dir = iterationDir(input.stateDir, input.loopId, input.iteration);
  const sfx = attemptSuffix(input.run, ctx.info.attempt);
  const r = await runCheckCommand({
    command: input.command,
    cwd: input.workspace,
    loopId: input.loopId,
    timeoutSeconds: input.timeoutSeconds,
    outputPath: path.join(dir, `check${sfx}.log`),
    errPath: path.join(dir, `check.stderr${sfx}.log`),
    onHeartbeat: (p) => beat(ctx, p),
    signal: ctx.cancellationSignal,
  });
  appendHookLog(input.stateDir, [
    {
      at: new Date(Date.now() - r.durationMs).toISOString(),
      loopId: input.loopId,
      iteration: input.iteration,
      type: 'check',
      name: input.command,
      outcome: r.passed ? 'passed' : r.timedOut ? 'timed_out' : `failed (exit ${r.exitCode})`,
      durationMs: r.durationMs,
    },
  ]);
  logLoopEvent('check.finished', {
    loopId: input.loopId,
    iteration: input.iteration,
    passed: r.passed,
    ms: r.durationMs,
  });
  return r;
}
