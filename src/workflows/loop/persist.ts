/**
 * Writing the loop's state out and ending the loop: search attributes (only what changed), state.json through the
 * `persistState` local activity, and the one way a loop finishes (best output first, then the final state).
 */
import { deprecatePatch, log, upsertSearchAttributes, type ApplicationFailure } from '@temporalio/workflow';
import type { IterationRecord, LoopResult } from '../../core/loop-types';
import type { InterventionEvent } from '../../core/anti-laziness-types';
import { SA } from '../search-attributes';
import { restoreBest } from './best-output';
import { nowIso, type LoopContext, type LoopEnding } from './context';
import { endRouting } from './routing';

type SearchAttributeUpdate = Parameters<typeof upsertSearchAttributes>[0] extends (infer U)[] ? U : never;

/** Patch id of the RalphQuality / RalphCostUsd search attributes: loops recorded before them upsert only the others. */
export const QUALITY_COST_SA_PATCH = 'search-attributes-quality-cost-v1';

/**
 * Asks the quality/cost patch, once per run, for loops recorded before patches-at-start-v1 (their histories have its
 * marker at the run's first persist, non-deprecated in the older ones). Once: the first sync runs right after the
 * startRouting local activity, where a replay may run it one workflow task before the marker is announced; asking
 * then is "not taken" without a command, the deprecated marker is skipped, and a second ask must not send the marker
 * (and its TemporalChangeVersion upsert) late, which is what failed ended loops' status queries. Quality and cost go
 * in the same upsert as the iteration (they only change with it), so the commands are the same either way.
 */
function askQualityCostPatch(ctx: LoopContext): void {
  if (ctx.patchesAtStart || ctx.qualityCostAsked) return;
  ctx.qualityCostAsked = true;
  deprecatePatch(QUALITY_COST_SA_PATCH);
}

/** Upserts the loop's search attributes that changed since the last upsert (each upsert is a history event). */
export function syncSearchAttributes(ctx: LoopContext): void {
  const { state } = ctx.m;
  const want: Partial<Record<keyof typeof SA, string | number | boolean>> = {
    status: state.status,
    iteration: state.iteration,
    awaitingHuman: state.pendingGate !== undefined,
    agent: state.agent,
  };
  askQualityCostPatch(ctx);
  const quality = [...state.records].reverse().find((r) => r.quality !== undefined)?.quality;
  if (quality !== undefined) want.quality = quality;
  want.costUsd = Math.round((state.totals.costUsd ?? 0) * 100) / 100;
  // Loops recorded before the sandbox have no sandbox state: nothing new is upserted for them.
  if (state.sandbox) want.sandbox = state.sandbox.state;
  const changed = (Object.keys(want) as (keyof typeof want)[]).filter((k) => ctx.upserted[k] !== want[k]);
  if (!changed.length) return;
  upsertSearchAttributes(changed.map((k) => ({ key: SA[k], value: want[k] }) as SearchAttributeUpdate));
  for (const k of changed) ctx.upserted[k] = want[k];
}

/** Syncs the search attributes and writes state.json (plus the iteration's record and events, when given). */
export async function persist(ctx: LoopContext, record?: IterationRecord, events?: InterventionEvent[]): Promise<void> {
  syncSearchAttributes(ctx);
  ctx.stateFile = (await ctx.acts.persistState({ state: ctx.m.state, record, events })).stateFile;
}

/** Ends the loop: restores the best output (anti-laziness layer, unless it failed), records the end, persists. */
export async function finish(ctx: LoopContext, ending: LoopEnding): Promise<LoopResult> {
  if (ctx.tracker && ending.status !== 'failed') await restoreBest(ctx);
  await endRouting(ctx, ctx.live.routing);
  const r = ctx.m.finish(ending, ctx.stateFile, nowIso());
  const routing = ctx.live.routing.tracker?.carryOut();
  if (routing) r.routing = routing;
  await persist(ctx);
  log.info(`loop ${ctx.m.state.loopId} ended: ${r.status} (${r.reason})`);
  return r;
}

/** Ends the loop as failed with the failure's message, then fails the workflow with it. */
export async function fail(ctx: LoopContext, e: ApplicationFailure | Error): Promise<never> {
  await finish(ctx, { status: 'failed', reason: e.message });
  throw e;
}
