/**
 * Agent phase: one run of the agent (an activity, in a cancellable scope), again after a usage limit. A usage limit is
 * a durable sleep until the reset and a re-run of the same iteration, not a failure; our own deadline
 * (AgentTimeout) and other run failures are outcomes the loop records; a configuration error fails the loop; an abort
 * cancels the scope and the activity kills the agent's process group.
 */
import { CancellationScope, condition, isCancellation, log, patched } from '@temporalio/workflow';
import type * as activities from '../../activities';
import { postLabel, preLabel } from '../../core/anti-laziness';
import { nowIso, type LoopContext, type Next } from './context';
import { asLoopFailure, describeActivityFailure, rethrowHostMove } from './failures';
import { persist } from './persist';
import type { PromptPlan } from './prompt';

/**
 * Patch id of the fused iteration: the detection pass and the completion check run inside the agent's activity, right
 * after the agent (one activity and one workflow task per iteration instead of two activities and a local activity).
 * Loops recorded before it replay with the separate activities. Asked in runAgentPhase (right after the first
 * persist's local activity) only by loops recorded before patches-at-start-v1: later loops take it without asking.
 */
export const FUSED_ITERATION_PATCH = 'fused-iteration-v1';

/** Wait used after a usage limit that names no reset time. */
const DEFAULT_USAGE_LIMIT_WAIT_MS = 15 * 60_000;

/** How the agent's run went. */
export interface AgentRun {
  /** The activity's result (also a timed-out run's partial result). */
  result?: activities.RunAgentResult;
  /** Why the run failed, when it did. */
  failure?: string;
  timedOut: boolean;
  /** Temporal attempts of the activity (a retried run after a worker crash counts 2). */
  attempts: number;
}

/** The run, or what the loop does instead (aborted, failed on a configuration error). */
export type AgentPhase = { ok: true; run: AgentRun } | { ok: false; next: Next };

/**
 * What a fused iteration runs after the agent: the detection pass when the layer is on, and the completion check with
 * the rule the verify phase applies (every iteration, or when the agent claims done). Gates, verification and
 * everything else stay separate activities.
 */
function fusedTail(ctx: LoopContext, n: number, agentTimeoutSeconds: number): activities.RunAgentThen | undefined {
  const { input } = ctx;
  const then: activities.RunAgentThen = { agentTimeoutSeconds };
  if (ctx.tracker)
    then.inspect = {
      pre: preLabel(n),
      post: postLabel(n),
      detectors: input.persistence.detectors,
      // Host-bound loops push the post checkpoint, so `ralph move` can re-create the workspace elsewhere.
      pushTo: input.host ? input.checkpointRemoteUrl : undefined,
    };
  if (input.completion.command)
    then.check = {
      command: input.completion.command,
      timeoutSeconds: input.completion.timeoutSeconds,
      on: ctx.checkOn,
    };
  return then.inspect || then.check ? then : undefined;
}

/** Runs the agent for iteration `n`, sleeping through usage limits. */
export async function runAgentPhase(ctx: LoopContext, n: number, plan: PromptPlan): Promise<AgentPhase> {
  const { m, input, tracker } = ctx;
  const run: AgentRun = { timedOut: false, attempts: 1 };
  const fused = ctx.patchesAtStart || patched(FUSED_ITERATION_PATCH);
  for (let attempt = 1; ; attempt++) {
    m.setPhase('agent', nowIso());
    m.countAgentRun();
    try {
      ctx.live.agentScope = new CancellationScope();
      const routed = plan.routed;
      // A routed profile may need longer than the loop's (adaptive) timeout: the larger wins.
      const agentTimeoutSeconds = Math.max(routed?.timeoutSeconds ?? 0, input.iterationTimeoutSeconds);
      const runAgent =
        agentTimeoutSeconds !== input.iterationTimeoutSeconds
          ? ctx.acts.runAgentFor(agentTimeoutSeconds)
          : ctx.acts.runAgent;
      run.result = await ctx.live.agentScope.run(() =>
        runAgent({
          loopId: m.state.loopId,
          iteration: n,
          run: attempt,
          maxIterations: m.state.maxIterations,
          workspace: input.workspace,
          stateDir: ctx.stateDir,
          agent: routed?.agent ?? input.agent,
          prompt: input.prompt,
          promptFile: input.promptFile,
          feedback: plan.feedback,
          guidance: plan.guidance,
          answer: plan.answer,
          questions: plan.questions,
          promise: input.completion.promise,
          checkCommand: input.completion.command,
          sections: routed
            ? [...(plan.reinforcement?.sections ?? []), ...routed.sections]
            : plan.reinforcement?.sections,
          checkpoint: tracker ? { label: preLabel(n, attempt) } : undefined,
          hooks:
            tracker && input.persistence.hooks.enabled
              ? { enabled: true, policy: input.persistence.hooks.policy }
              : undefined,
          then: fused ? fusedTail(ctx, n, agentTimeoutSeconds) : undefined,
          sandbox: input.sandbox,
        }),
      );
    } catch (e) {
      rethrowHostMove(e);
      if (isCancellation(e) && m.abortRequested)
        return {
          ok: false,
          next: {
            kind: 'finish',
            ending: {
              status: 'aborted',
              reason: m.abortInfo?.reason ?? 'aborted while the agent was running',
              by: m.abortInfo?.by,
            },
          },
        };
      const fatal = asLoopFailure(e);
      if (fatal) return { ok: false, next: { kind: 'fail', error: fatal } };
      const f = describeActivityFailure(e);
      run.failure = f.message;
      run.timedOut = f.timedOut;
      if (f.result) run.result = f.result;
    } finally {
      ctx.live.agentScope = undefined;
    }
    run.attempts = run.result?.attempt ?? run.attempts;
    const limit = run.result?.usageLimit;
    if (!limit) return { ok: true, run };
    // Usage limit: sleep durably (a timer, no live process) and run the same iteration again; not a failure.
    const resetAt = limit.resetAt ?? Date.now() + DEFAULT_USAGE_LIMIT_WAIT_MS;
    const waitMs = Math.min(Math.max(1000, resetAt - Date.now() + 1000), input.maxUsageLimitWaitSeconds * 1000);
    m.recordUsageLimitWait(waitMs, new Date(Date.now() + waitMs).toISOString(), nowIso());
    log.info(`usage limit: sleeping ${Math.round(waitMs / 1000)}s before re-running iteration ${n}`, {
      message: limit.message,
    });
    await persist(ctx);
    await condition(() => m.abortRequested, waitMs);
    if (m.abortRequested)
      return {
        ok: false,
        next: {
          kind: 'finish',
          ending: {
            status: 'aborted',
            reason: m.abortInfo?.reason ?? 'aborted during a usage-limit wait',
            by: m.abortInfo?.by,
          },
        },
      };
    m.wake(nowIso());
    run.result = undefined;
  }
}
