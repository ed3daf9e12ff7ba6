/**
 * Best-output selection at loop end (anti-laziness layer): among the iterations at or above the quality threshold,
 * verified first, the highest score; when it is not the final iteration, its checkpoint is restored into the working
 * tree or onto a branch, and the final state is kept as checkpoint `final`.
 */
import { log } from '@temporalio/workflow';
import { postLabel } from '../../core/anti-laziness';
import type { LoopContext } from './context';
import { describeActivityFailure, rethrowHostMove } from './failures';

/** Selects the best iteration and restores it when it isn't the last one. A failed restore is logged, not fatal. */
export async function restoreBest(ctx: LoopContext): Promise<void> {
  const tracker = ctx.tracker!;
  const best = tracker.best();
  if (!best) return;
  const t = tracker.state.trajectory;
  const final = t[t.length - 1];
  tracker.state.best = best;
  const to = ctx.input.persistence.bestOutput.restore;
  if (!final || final.n === best.iteration || to === 'off') return;
  try {
    const r = await ctx.acts.restoreCheckpoint({
      loopId: ctx.m.state.loopId,
      workspace: ctx.input.workspace,
      stateDir: ctx.stateDir,
      label: best.checkpoint,
      to,
      saveAs: postLabel(final.n) === best.checkpoint ? undefined : 'final',
    });
    best.restoredTo = r.restoredTo;
    log.info(`best output: ${best.reason}; restored to ${r.restoredTo}`);
  } catch (e) {
    rethrowHostMove(e);
    log.warn(`best output: could not restore ${best.checkpoint}: ${describeActivityFailure(e).message}`);
  }
}
