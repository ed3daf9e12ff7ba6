/**
 * Continue-as-new: after `continueAsNewEvery` iterations in one run, or when Temporal suggests it (history size), the
 * loop continues as a new run carrying the machine (exact totals, recent records, pending feedback, signal log) and
 * the state file. Checked before an iteration starts and after gates close, so a pending decision is never split.
 */
import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { LoopCarry } from '../../core/loop-machine';
import type { LoopContext, VerificationBaseline } from './context';

/** What one run hands to the next through continue-as-new. */
export interface RalphLoopCarry {
  machine: LoopCarry;
  stateFile: string;
  /** The verification baseline recorded by the first run (absent: verification off, or a loop from before it). */
  verification?: VerificationBaseline;
}

/** True when this run should hand over to a new one before the next iteration. */
export function shouldContinueAsNew(ctx: LoopContext): boolean {
  return ctx.runIterations >= ctx.input.continueAsNewEvery || workflowInfo().continueAsNewSuggested;
}

/** Continues as new with the normalised input and the carry (never returns). */
export async function continueAsNewWithCarry(ctx: LoopContext): Promise<never> {
  // Handlers are synchronous today; waiting keeps that safe if one ever awaits.
  await condition(allHandlersFinished);
  const next: RalphLoopCarry = { machine: ctx.m.carry(), stateFile: ctx.stateFile };
  if (ctx.verification) next.verification = ctx.verification;
  // The workflow type by name: importing ralphLoop here would make a cycle.
  return continueAsNew<(input: unknown, carry: RalphLoopCarry) => Promise<unknown>>(ctx.input, next);
}
