/**
 * The `ralphProject` workflow: a PRD worked task by task. Each attempt at a task is a child `ralphLoop` (workflow id
 * `<projectId>--<taskId>--a<n>`) whose agent timeout is the task's adaptive timeout (complexity x backoff after
 * timeouts, or an operator's); a task that keeps failing is BLOCKED and the project moves on. Operators list, unblock
 * and retry blocked tasks with updates (refused with a clear message when invalid). Rules live in core/ProjectMachine;
 * handlers in ./project/handlers.ts, the attempt (child loop) in ./project/attempt.ts.
 *
 * Parent-close policy: REQUEST_CANCEL. Terminating or cancelling the project cancels the running child loop (its agent
 * process group is killed); nothing else keeps running.
 */
import {
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import type * as activities from '../activities';
import type { ResolvedProjectInput, ProjectInputRaw } from '../config/project-input';
import { ErrorTypes, NON_RETRYABLE_ERROR_TYPES } from '../core/constants';
import type { RoutingCarryIn } from '../core/routing/tracker';
import { ProjectMachine, type ProjectState } from '../core/project-machine';
import type { ChildGateNotice } from '../core/child-gates';
import { projectCurrentDetails } from '../core/ui-details';
import { childLoopInput, childLoopUi, runAttempt } from './project/attempt';
import { setProjectHandlers } from './project/handlers';

export { tasks, unblock, retryBlocked, finish, abortProject } from './messages';

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
  /** What the last task's loop ended with (automatic routing), passed to the next task's loop. */
  routing?: RoutingCarryIn;
}

const { validateProject, markTaskDone } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

const nowIso = (): string => new Date().toISOString();

/** Runs a PRD's tasks as child loops until all are done, or only blocked ones are left and an operator finishes. */
export async function ralphProject(rawInput: ProjectInputRaw, carry?: ProjectCarry): Promise<ProjectResult> {
  const { input, m } = await start(rawInput, carry);
  showProject(m);
  const req = setProjectHandlers(m, nowIso, () => showProject(m, undefined, req.childGate));
  const result = (status: ProjectResult['status']): ProjectResult => projectResult(m, status);

  let attemptsThisRun = 0;
  let routing = carry?.routing;
  for (;;) {
    if (req.abort) return result('aborted');
    const t = m.next(nowIso());
    if (!t) {
      if (m.allDone) return result('done');
      // Only blocked tasks left: the project waits for an operator (unblock, retry-blocked) or a finish.
      m.state.status = 'waiting_operator';
      showProject(m);
      log.info(`project ${m.state.projectId}: only blocked tasks left; waiting for unblock, retry-blocked or finish`);
      // The predicate only reads (peek); the task is picked, and dependents blocked, by next() below.
      await condition(() => !!req.abort || !!req.finish || m.peek() !== undefined);
      if (req.abort) return result('aborted');
      if (req.finish && !m.next(nowIso())) return result(m.allDone ? 'done' : 'finished_with_blocked');
      m.state.status = 'running';
      continue;
    }
    if (attemptsThisRun >= input.continueAsNewEvery || workflowInfo().continueAsNewSuggested)
      return continueAsNew<typeof ralphProject>(input, { state: m.state, ...(routing ? { routing } : {}) });

    const loopId = `${m.state.projectId}--${t.id}--a${t.attempts.length + 1}`;
    const attempt = m.startAttempt(t, loopId, nowIso());
    showProject(m);
    log.info(`task ${t.id} attempt ${attempt.n}: timeout ${attempt.timeoutSeconds}s (${attempt.why})`);
    const childInput = childLoopInput(input, m.state.projectId, t, attempt, routing);
    const ran = await runAttempt(
      loopId,
      childInput,
      req,
      childLoopUi(m.state.projectId, t, attempt.n, loopId, childInput),
    );
    const { outcome, reason, aborted } = ran;
    req.childGate = undefined;
    if (ran.routing) routing = ran.routing;
    m.finishAttempt(t, outcome, reason, nowIso());
    if (aborted) return result('aborted');
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

/** The project's input and machine: from the carry, or validated (schema + PRD) by an activity. */
async function start(
  rawInput: ProjectInputRaw,
  carry?: ProjectCarry,
): Promise<{ input: ResolvedProjectInput; m: ProjectMachine }> {
  if (carry) {
    // A continued run's input is the one the first run validated.
    const input = rawInput as ResolvedProjectInput;
    return { input, m: new ProjectMachine(input.timeouts, { carry: carry.state, now: nowIso() }, input.autoUnblock) };
  }
  const v = await validateProject({ raw: rawInput }).catch((e: { cause?: { message?: string; type?: string } }) => {
    // The project fails with the activity's own message (file, line, problem), not "Activity task failed".
    throw ApplicationFailure.nonRetryable(e.cause?.message ?? String(e), e.cause?.type ?? ErrorTypes.InvalidInput);
  });
  const input = v.input;
  const m = new ProjectMachine(
    input.timeouts,
    { projectId: workflowInfo().workflowId, prdFile: input.prdFile, tasks: v.tasks, now: nowIso() },
    input.autoUnblock,
  );
  return { input, m };
}

/** The project's result, and its state marked finished. */
function projectResult(m: ProjectMachine, status: ProjectResult['status']): ProjectResult {
  m.state.status = status === 'aborted' ? 'aborted' : 'done';
  m.state.updatedAt = nowIso();
  const r: ProjectResult = {
    projectId: m.state.projectId,
    status,
    done: m.state.tasks.filter((t) => t.status === 'done').map((t) => t.id),
    blocked: m.state.tasks
      .filter((t) => t.status === 'blocked')
      .map((t) => ({ id: t.id, reason: t.blockReason, details: t.blockDetails })),
    attempts: m.state.attemptsRun,
  };
  showProject(m, r);
  return r;
}

/**
 * Sets the project's current details in the Temporal UI (not a command: no history event, nothing to replay), with
 * the running child loop's open human gate, if it told one.
 */
function showProject(m: ProjectMachine, ending?: ProjectResult, childGate?: ChildGateNotice): void {
  try {
    setCurrentDetails(projectCurrentDetails(m.state, ending, childGate));
  } catch (e) {
    // Only a view: never fail the project's workflow task over it.
    setCurrentDetails(`**Status**: ${m.state.status} (details unavailable: ${(e as Error).message})`);
  }
}
