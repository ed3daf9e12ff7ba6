/**
 * Inspect phase (anti-laziness layer): the detection pass after the agent ran: a post-run checkpoint, the diff against
 * the pre-run one, the workspace detectors and the hook audit log. A local activity: one marker event in history.
 * A pass that fails is logged and the iteration goes on without findings (the check still decides).
 */
import { log } from '@temporalio/workflow';
import type * as activities from '../../activities';
import { postLabel, preLabel } from '../../core/persistence';
import type { AgentRun } from './agent';
import { nowIso, type LoopContext } from './context';
import { describeActivityFailure } from './failures';

/** Runs the detection pass for iteration `n`; undefined when the layer is off or the run left no checkpoint. */
export async function inspectPhase(
  ctx: LoopContext,
  n: number,
  run: AgentRun,
): Promise<activities.InspectIterationResult | undefined> {
  const agent = run.result;
  if (!ctx.tracker || !agent?.checkpoint) return undefined;
  ctx.m.setPhase('inspecting', nowIso());
  try {
    return await ctx.acts.inspectIteration({
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
    });
  } catch (e) {
    log.warn(`detection pass failed: ${describeActivityFailure(e).message}`);
    return undefined;
  }
}
