/**
 * What the loop checks before an iteration starts, in this order: an abort, a move to another host, a pause,
 * continue-as-new, and the iteration budget. Returns what to do instead of an iteration, or undefined to run one.
 */
import { condition } from '@temporalio/workflow';
import { nowIso, type LoopContext, type Next } from './context';
import { shouldContinueAsNew } from './carry';
import { lastIterationSummary } from './failures';
import { persist } from './persist';

/** Abort, pause (waits until resume or abort), continue-as-new, or budget used up; undefined: run an iteration. */
export async function beforeIteration(ctx: LoopContext): Promise<Next | undefined> {
  const { m } = ctx;
  if (m.abortRequested)
    return {
      kind: 'finish',
      ending: { status: 'aborted', reason: m.abortInfo?.reason ?? 'aborted by signal', by: m.abortInfo?.by },
    };

  if (m.state.host?.pendingMove) return { kind: 'move' };

  if (m.state.paused) {
    m.setPhase('paused', nowIso());
    await persist(ctx);
    await condition(() => !m.state.paused || m.abortRequested);
    m.setPhase('agent', nowIso());
    return { kind: 'continue' };
  }

  if (shouldContinueAsNew(ctx)) return { kind: 'continue-as-new' };

  if (m.budgetExhausted) {
    if (ctx.input.onBudgetExhausted === 'end')
      return {
        kind: 'finish',
        ending: {
          status: 'failed',
          reason: `${m.state.maxIterations} iterations used up without passing the completion check`,
        },
      };
    return {
      kind: 'human-gate',
      reason: 'max_iterations',
      title: `Reached ${m.state.maxIterations} iterations without passing the completion check`,
      details: lastIterationSummary(m.state.records[m.state.records.length - 1]),
    };
  }
  return undefined;
}
