/**
 * One attempt at a project task: a child `ralphLoop` (workflow id `<projectId>--<taskId>--a<n>`, so a replayed
 * project schedules the same children) whose agent timeout is the attempt's adaptive timeout, ending after
 * `iterationsPerAttempt` iterations instead of asking a human. Its result is classified the way the project counts it.
 */
import { CancellationScope, ParentClosePolicy, executeChild, isCancellation } from '@temporalio/workflow';
import type { LoopInputRaw } from '../../config/loop-input';
import type { ResolvedProjectInput } from '../../config/project-input';
import type { LoopResult } from '../../core/loop-types';
import type { RoutingCarryIn } from '../../core/routing/tracker';
import { taskPrompt, type AttemptOutcome, type AttemptRecord, type ProjectTask } from '../../core/project-machine';
import { childLoopSummary, loopStaticDetails } from '../../core/ui-details';
import { ralphLoop } from '../ralph-loop';
import type { ProjectRequests } from './handlers';

/** The child loop's input for attempt `attempt` at task `t`. */
export function childLoopInput(
  input: ResolvedProjectInput,
  projectId: string,
  t: ProjectTask,
  attempt: AttemptRecord,
  routing?: RoutingCarryIn,
): LoopInputRaw {
  return {
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
    labels: { ...input.labels, project: projectId, task: t.id, attempt: String(attempt.n) },
    // Every task's loop routes on its own text, starting from the agent, domain and context the last task ended with
    // (the switch rule decides whether the agent changes).
    ...(input.routing?.enabled === false
      ? {}
      : { routing: { ...(input.routing ?? {}), carryIn: { ...stripUndefined(routing ?? {}), taskId: t.id } } }),
  };
}

/** What the Temporal UI shows of a child loop: the task and attempt as its summary, the loop's details. */
export interface ChildLoopUi {
  staticSummary: string;
  staticDetails: string;
}

/** The child loop's summary and details for attempt `n` at task `t`. */
export function childLoopUi(
  projectId: string,
  t: ProjectTask,
  n: number,
  loopId: string,
  input: LoopInputRaw,
): ChildLoopUi {
  return {
    staticSummary: childLoopSummary(projectId, t.id, t.title, n),
    staticDetails: `${loopStaticDetails(input, loopId)}\n\nTask \`${t.id}\` of project \`${projectId}\`, attempt ${n}.`,
  };
}

/**
 * Runs the attempt's child loop (parent-close policy REQUEST_CANCEL) and classifies how it ended. Returns
 * `aborted: true` when the project's abort cancelled it.
 */
export async function runAttempt(
  loopId: string,
  loopInput: LoopInputRaw,
  req: ProjectRequests,
  ui?: ChildLoopUi,
): Promise<{ outcome: AttemptOutcome; reason: string; aborted?: boolean; routing?: RoutingCarryIn }> {
  try {
    req.childScope = new CancellationScope();
    const r: LoopResult = await req.childScope.run(() =>
      executeChild(ralphLoop, {
        workflowId: loopId,
        args: [loopInput],
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        // Metadata of the start command, not part of it: a replay of a project recorded without it still matches.
        ...(ui ?? {}),
      }),
    );
    return { ...classify(r), ...(r.routing ? { routing: r.routing } : {}) };
  } catch (e) {
    if (req.abort && isCancellation(e)) return { outcome: 'aborted', reason: 'project aborted', aborted: true };
    return {
      outcome: 'gate_failure',
      reason: `child loop failed: ${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message}`,
    };
  } finally {
    req.childScope = undefined;
  }
}

/** How an attempt's child loop ended, as the project counts it. */
export function classify(r: LoopResult): { outcome: AttemptOutcome; reason: string } {
  if (r.status === 'accepted') return { outcome: 'accepted', reason: r.reason };
  if (r.status === 'aborted') return { outcome: 'aborted', reason: r.reason };
  if (r.last?.agentTimedOut || r.last?.outcome === 'agent_timeout')
    return { outcome: 'timeout', reason: `agent timed out (${r.reason})` };
  if (r.last?.detections?.includes('no_files_written'))
    return { outcome: 'no_files', reason: `no file written (${r.reason})` };
  return { outcome: 'gate_failure', reason: r.reason };
}

/** The object without its undefined fields (the child's input is JSON: an undefined field would fail `.strict()`). */
const stripUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
