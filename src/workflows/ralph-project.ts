/**
 * The `ralphProject` workflow: a PRD worked task by task. Each attempt at a task is a child `ralphLoop` (workflow id
 * `<projectId>--<taskId>--a<n>`) whose agent timeout is the task's adaptive timeout (complexity x backoff after
 * timeouts, or an operator's); a task that keeps failing is BLOCKED and the project moves on. Operators list, unblock
 * and retry blocked tasks with updates (refused with a clear message when invalid). Rules live in core/ProjectMachine.
 *
 * Parent-close policy: REQUEST_CANCEL. Terminating or cancelling the project cancels the running child loop (its agent
 * process group is killed); nothing else keeps running.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ParentClosePolicy,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  defineUpdate,
  executeChild,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import type { LoopInputRaw } from '../config/loop-input';
import type { ProjectInput, ProjectInputRaw } from '../config/project-input';
import type { TimeoutsConfig } from '../config/timeouts-config';
import { NON_RETRYABLE_ERROR_TYPES } from '../core/constants';
import type { LoopResult } from '../core/loop-types';
import {
  ProjectMachine,
  taskPrompt,
  type AttemptOutcome,
  type ProjectState,
  type UnblockRequest,
} from '../core/project-machine';
import { ralphLoop } from './ralph-loop';

/** The task table (status, attempts, block reasons, timeouts used). */
export const tasks = defineQuery<ProjectState>('tasks');
/** Unblocks named tasks, or every blocked task of a complexity (`filter`), optionally with a new timeout. */
export const unblock = defineUpdate<{ tasks: string[]; note: string }, [UnblockRequest]>('unblock');
/** Gives every blocked task `maxAttempts` (default 1) more attempts. */
export const retryBlocked = defineUpdate<
  { tasks: string[]; note: string },
  [{ maxAttempts?: number; reason?: string; by?: string }]
>('retryBlocked');
/** Ends a project that waits for an operator (only blocked tasks left) with what it has. */
export const finish = defineSignal<[{ by?: string; reason?: string }?]>('finish');
/** Stops the project (cancels the running child loop). */
export const abortProject = defineSignal<[{ by?: string; reason?: string }?]>('abort');

/** How a project ended. */
export interface ProjectResult {
  projectId: string;
  status: 'done' | 'finished_with_blocked' | 'aborted';
  done: string[];
  blocked: { id: string; reason?: string; details?: string }[];
  attempts: number;
}

/** What continue-as-new carries. */
export interface ProjectCarry {
  state: ProjectState;
}

const { validateProject, markTaskDone } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

const nowIso = (): string => new Date().toISOString();

/** Runs a PRD's tasks as child loops until all are done, or only blocked ones are left and an operator finishes. */
export async function ralphProject(rawInput: ProjectInputRaw, carry?: ProjectCarry): Promise<ProjectResult> {
  const info = workflowInfo();
  let input: ProjectInput;
  let m: ProjectMachine;
  if (carry) {
    input = rawInput as ProjectInput;
    m = new ProjectMachine(input.timeouts as TimeoutsConfig, { carry: carry.state, now: nowIso() }, input.autoUnblock);
  } else {
    const v = await validateProject({ raw: rawInput }).catch((e: { cause?: { message?: string; type?: string } }) => {
      // The project fails with the activity's own message (file, line, problem), not "Activity task failed".
      throw ApplicationFailure.nonRetryable(e.cause?.message ?? String(e), e.cause?.type ?? 'InvalidInput');
    });
    input = v.input;
    m = new ProjectMachine(
      input.timeouts as TimeoutsConfig,
      { projectId: info.workflowId, prdFile: input.prdFile, tasks: v.tasks, now: nowIso() },
      input.autoUnblock,
    );
  }

  let finishRequest: { by?: string; reason?: string } | undefined;
  let abortRequest: { by?: string; reason?: string } | undefined;
  let childScope: CancellationScope | undefined;
  setHandler(tasks, () => m.state);
  setHandler(
    unblock,
    (r) => {
      const out = m.unblock(r, nowIso());
      return { tasks: out.tasks, note: out.note };
    },
    {
      validator: (r) => {
        const problem = m.validateUnblock(r ?? {});
        if (problem) throw new Error(problem);
      },
    },
  );
  setHandler(
    retryBlocked,
    (r) => {
      const out = m.retryBlocked(r ?? {}, nowIso());
      return { tasks: out.tasks, note: out.note };
    },
    {
      validator: (r) => {
        if (!m.state.tasks.some((t) => t.status === 'blocked')) throw new Error('no task is blocked');
        const n = r?.maxAttempts;
        if (n !== undefined && !(Number.isInteger(n) && n > 0))
          throw new Error(`max attempts must be a positive integer, got ${n}`);
      },
    },
  );
  setHandler(finish, (p) => {
    finishRequest = p ?? {};
  });
  setHandler(abortProject, (p) => {
    abortRequest = p ?? {};
    childScope?.cancel();
  });

  const result = (status: ProjectResult['status']): ProjectResult => {
    m.state.status = status === 'aborted' ? 'aborted' : 'done';
    m.state.updatedAt = nowIso();
    return {
      projectId: m.state.projectId,
      status,
      done: m.state.tasks.filter((t) => t.status === 'done').map((t) => t.id),
      blocked: m.state.tasks
        .filter((t) => t.status === 'blocked')
        .map((t) => ({ id: t.id, reason: t.blockReason, details: t.blockDetails })),
      attempts: m.state.attemptsRun,
    };
  };

  let attemptsThisRun = 0;
  for (;;) {
    if (abortRequest) return result('aborted');
    const t = m.next(nowIso());
    if (!t) {
      if (m.allDone) return result('done');
      // Only blocked tasks left: the project waits for an operator (unblock, retry-blocked) or a finish.
      m.state.status = 'waiting_operator';
      log.info(`project ${m.state.projectId}: only blocked tasks left; waiting for unblock, retry-blocked or finish`);
      await condition(() => !!abortRequest || !!finishRequest || m.next(nowIso()) !== undefined);
      if (abortRequest) return result('aborted');
      if (finishRequest && !m.next(nowIso())) return result(m.allDone ? 'done' : 'finished_with_blocked');
      m.state.status = 'running';
      continue;
    }
    if (attemptsThisRun >= input.continueAsNewEvery || workflowInfo().continueAsNewSuggested)
      return continueAsNew<typeof ralphProject>(input, { state: m.state });

    const attemptNo = t.attempts.length + 1;
    const loopId = `${m.state.projectId}--${t.id}--a${attemptNo}`;
    const attempt = m.startAttempt(t, loopId, nowIso());
    log.info(`task ${t.id} attempt ${attempt.n}: timeout ${attempt.timeoutSeconds}s (${attempt.why})`);
    const loopInput: LoopInputRaw = {
      prompt: taskPrompt(t, input.preamble),
      workspace: input.workspace,
      agent: {
        ...input.agent,
        env: { ...input.agent.env, RALPH_TASK_ID: t.id, RALPH_TASK_ATTEMPT: String(attempt.n) },
      },
      completion: {
        ...input.completion,
        command: input.completion.command?.split('{taskId}').join(t.id),
      },
      gates: input.gates,
      persistence: input.persistence,
      maxIterations: input.iterationsPerAttempt,
      iterationTimeoutSeconds: attempt.timeoutSeconds,
      heartbeatTimeoutSeconds: input.heartbeatTimeoutSeconds,
      agentMaxAttempts: 1,
      onBudgetExhausted: 'end',
      stateDir: input.stateDir,
      labels: { ...input.labels, project: m.state.projectId, task: t.id, attempt: String(attempt.n) },
    };
    let outcome: AttemptOutcome;
    let reason: string;
    try {
      childScope = new CancellationScope();
      const r: LoopResult = await childScope.run(() =>
        executeChild(ralphLoop, {
          workflowId: loopId,
          args: [loopInput],
          parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        }),
      );
      ({ outcome, reason } = classify(r));
    } catch (e) {
      if (abortRequest && isCancellation(e)) {
        m.finishAttempt(t, 'aborted', 'project aborted', nowIso());
        return result('aborted');
      }
      outcome = 'gate_failure';
      reason = `child loop failed: ${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message}`;
    } finally {
      childScope = undefined;
    }
    m.finishAttempt(t, outcome, reason, nowIso());
    attemptsThisRun++;
    if (outcome === 'accepted') {
      try {
        await markTaskDone({ prdFile: input.prdFile, taskId: t.id });
      } catch (e) {
        // The project's own state is the truth; a PRD that can't be written is reported, not fatal.
        log.warn(`task ${t.id} done, but ${input.prdFile} could not be updated: ${(e as Error).message}`);
      }
    } else if (t.status === 'blocked') log.warn(`task ${t.id} BLOCKED (${t.blockReason}): ${t.blockDetails}`);
  }
}

/** How an attempt's child loop ended, as the project counts it. */
function classify(r: LoopResult): { outcome: AttemptOutcome; reason: string } {
  if (r.status === 'accepted') return { outcome: 'accepted', reason: r.reason };
  if (r.status === 'aborted') return { outcome: 'aborted', reason: r.reason };
  if (r.last?.agentTimedOut || r.last?.outcome === 'agent_timeout')
    return { outcome: 'timeout', reason: `agent timed out (${r.reason})` };
  if (r.last?.detections?.includes('no_files_written'))
    return { outcome: 'no_files', reason: `no file written (${r.reason})` };
  return { outcome: 'gate_failure', reason: r.reason };
}
