import path from 'node:path';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { attemptSuffix, iterationDir } from './artifacts';
import { readTail, runLogged } from './process';
import { appendHookLog } from './hook-log';
import { logLoopEvent } from '../telemetry/logger';

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

/**
 * Runs the completion command (`sh -c`) in the workspace: the loop completes only when it exits 0. A command that
 * times out or can't start never counts as passing. Output goes to the iteration's `check.log`.
 */
export async function checkCompletion(input: CheckCompletionInput): Promise<CheckCompletionResult> {
  const ctx = Context.current();
  const dir = iterationDir(input.stateDir, input.loopId, input.iteration);
  const sfx = attemptSuffix(input.run, ctx.info.attempt);
  const outputPath = path.join(dir, `check${sfx}.log`);
  const errPath = path.join(dir, `check.stderr${sfx}.log`);
  const r = await runLogged({
    file: input.command,
    args: [],
    shell: true,
    cwd: input.workspace,
    env: { ...(process.env as Record<string, string>), CI: 'true', RALPH_LOOP_ID: input.loopId },
    stdoutPath: outputPath,
    stderrPath: errPath,
    deadlineMs: input.timeoutSeconds * 1000,
    heartbeatEveryMs: 2000,
    onHeartbeat: (p) => ctx.heartbeat(p),
    signal: ctx.cancellationSignal,
  });
  if (r.cancelled) throw new CancelledFailure('completion check cancelled');
  const outputTail = (readTail(outputPath, 3000) + '\n' + readTail(errPath, 3000)).trim();
  const passed = !r.timedOut && !r.spawnError && r.exitCode === 0;
  appendHookLog(input.stateDir, [
    {
      at: new Date(Date.now() - r.durationMs).toISOString(),
      loopId: input.loopId,
      iteration: input.iteration,
      type: 'check',
      name: input.command,
      outcome: passed ? 'passed' : r.timedOut ? 'timed_out' : `failed (exit ${r.exitCode})`,
      durationMs: r.durationMs,
    },
  ]);
  logLoopEvent('check.finished', { loopId: input.loopId, iteration: input.iteration, passed, ms: r.durationMs });
  return {
    passed,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    outputPath,
    outputTail: r.spawnError ? `could not run the check: ${r.spawnError}` : outputTail.slice(-3000),
  };
}
