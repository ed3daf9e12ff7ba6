/**
 * Inspect phase (anti-laziness layer): the detection pass after the agent ran: a post-run checkpoint, the diff against
 * the pre-run one, the workspace detectors and the hook audit log. A local activity: one marker event in history.
 * A pass that fails is logged and the iteration goes on without findings (the check still decides).
 */
import { log } from '@temporalio/workflow';
import type * as activities from '../../activities';
import { postLabel, preLabel } from '../../core/anti-laziness';
import type { AgentRun } from './agent';
import { nowIso, type LoopContext } from './context';
import { describeActivityFailure, rethrowHostMove } from './failures';

/** Runs the detection pass for iteration `n`; undefined when the layer is off or the run left no checkpoint. */
export async function inspectPhase(
  ctx: LoopContext,
  n: number,
  run: AgentRun,
): Promise<activities.InspectIterationResult | undefined> {
  const agent = run.result;
  if (!ctx.tracker || !agent?.checkpoint) return undefined;
  // A fused iteration ran the pass inside the agent's activity; when it failed there, it runs here as before.
  if (agent.inspected) return recordPush(ctx, n, agent.inspected);
  if (agent.inspectError)
    log.warn(`detection pass in the agent's activity failed, running it again: ${agent.inspectError}`);
  ctx.m.setPhase('inspecting', nowIso());
  try {
    const r = await ctx.acts.inspectIteration({
      loopId: ctx.m.state.loopId,
      iteration: n,
      workspace: ctx.input.workspace,
      stateDir: ctx.stateDir,
      pre: preLabel(n),
      // The pre-run checkpoint of run 1 (a usage-limit re-run records its own, under another label).
      preCommit: agent.checkpoint.label === preLabel(n) ? agent.checkpoint.commit : undefined,
      post: postLabel(n),
      exitCode: agent.exitCode,
      claimed: agent.claim.claimed ?? false,
      claimedFiles: agent.claimedFiles,
      finalTextTail: agent.finalTextTail,
      promptPath: agent.promptPath,
      detectors: ctx.input.persistence.detectors,
      // Host-bound loops push the post checkpoint, so `ralph move` can re-create the workspace elsewhere.
      pushTo: ctx.input.host ? ctx.input.checkpointRemoteUrl : undefined,
    });
    return recordPush(ctx, n, r);
  } catch (e) {
    rethrowHostMove(e);
    log.warn(`detection pass failed: ${describeActivityFailure(e).message}`);
    return undefined;
  }
}

function recordPush(
  ctx: LoopContext,
  n: number,
  r: activities.InspectIterationResult,
): activities.InspectIterationResult {
  if (r.pushed) ctx.m.recordPush(postLabel(n));
  else if (r.pushError) log.warn(`could not push checkpoint ${postLabel(n)}: ${r.pushError}`);
  return r;
}
