/**
 * Human gates: the loop opens one and waits on a `condition()` with no timeout (days cost nothing), then acts on the
 * decision. Two kinds: the loop's own gates (iterations, rejections or budget ran out) and the anti-laziness layer's
 * escalations (regression, stuck loop, circuit breaker, recovery exhausted), whose `reject` rolls the workspace back.
 */
import { condition, getExternalWorkflowHandle, isCancellation, log } from '@temporalio/workflow';
import { childGateNotice, type ChildGateNotice } from '../../core/child-gates';
import type { GateDecision, HumanGate, LoopResult } from '../../core/loop-types';
import { gateNumbers } from '../../core/gate-numbers';
import { postLabel } from '../../core/anti-laziness';
import { nowIso, type LoopContext, type Next } from './context';
import { finish, persist } from './persist';
import { childGate } from '../messages';

/** Patch id of the child-to-project gate notices: children recorded before it send none. */
export const CHILD_GATE_NOTICE_PATCH = 'child-gate-notice-v1';

/** Tells the parent project about the gate (open, or closed), when this loop is a project's child under the patch. */
async function noticeParent(ctx: LoopContext, notice: ChildGateNotice): Promise<void> {
  if (!ctx.notifiesParent) return;
  try {
    await getExternalWorkflowHandle(ctx.notifiesParent).signal(childGate, notice);
  } catch (e) {
    // The loop being cancelled (its project aborted) goes on as a cancellation.
    if (isCancellation(e)) throw e;
    // Only a view of the project: an ended project never fails its child.
    log.warn(`could not tell project ${ctx.notifiesParent} about gate: ${(e as Error).message}`);
  }
}

/** A decision at a gate that offers approve, reject and abort only. */
export type PlainDecision = GateDecision & { decision: 'approve' | 'reject' | 'abort' };

/** Opens a human gate and waits, indefinitely, for the decision that closes it. */
export async function awaitHuman(
  ctx: LoopContext,
  reason: string,
  title: string,
  details: string,
  extra: Pick<HumanGate, 'evidence' | 'numbers'> = {},
): Promise<PlainDecision> {
  return (await openAndWait(ctx, {
    reason,
    title,
    details,
    ...(extra.evidence ? { evidence: extra.evidence } : {}),
    options: ['approve', 'reject', 'abort'],
    ...(extra.numbers ? { numbers: extra.numbers } : {}),
  })) as PlainDecision;
}

/** Opens the gate (and, for a question, counts it), persists, and waits with no timeout for its decision. */
export async function openAndWait(
  ctx: LoopContext,
  g: Omit<HumanGate, 'id' | 'openedAt' | 'iteration'>,
  beforePersist?: (gate: HumanGate) => void,
): Promise<GateDecision> {
  const { m } = ctx;
  const gate = m.openGate(g, nowIso());
  beforePersist?.(gate);
  log.info(`human gate ${gate.id} opened: ${gate.title}`);
  await persist(ctx);
  await noticeParent(ctx, childGateNotice(m.state.loopId, gate));
  await condition(() => m.pendingDecision !== undefined);
  const d = m.pendingDecision!;
  await noticeParent(ctx, { loopId: m.state.loopId });
  return d;
}

/**
 * Ends the loop at a gate the human aborted, or approved (accepted by them) when `approveEnds`; undefined for any
 * other decision, which the caller acts on.
 */
export function endAtGate(ctx: LoopContext, d: GateDecision, approveEnds = true): Promise<LoopResult> | undefined {
  if (d.decision === 'abort')
    return finish(ctx, { status: 'aborted', reason: d.reason ?? `aborted at gate ${d.gateId}`, by: d.by });
  if (d.decision === 'approve' && approveEnds)
    return finish(ctx, {
      status: 'accepted',
      acceptedBy: 'human',
      reason: d.reason ?? `approved at gate ${d.gateId}`,
      by: d.by,
    });
  return undefined;
}

/**
 * The loop's own gate. Returns the loop's result on approve (accepted by the human) or abort, or undefined on reject:
 * the loop goes on with the guidance and the extra iterations; a `rejections` gate resets the streak and a `budget`
 * gate raises the budget by half.
 */
export async function humanGate(
  ctx: LoopContext,
  gate: Extract<Next, { kind: 'human-gate' }>,
): Promise<LoopResult | undefined> {
  const d = await awaitHuman(ctx, gate.reason, gate.title, gate.details);
  const ended = endAtGate(ctx, d);
  if (ended) return ended;
  const { m } = ctx;
  if (gate.reason === 'rejections') m.resetRejections();
  if (gate.reason === 'budget') m.state.budgetScale = (m.state.budgetScale ?? 1) + 0.5;
  m.setPhase('agent', nowIso());
  await persist(ctx);
  return undefined;
}

/**
 * PDARE's escalation: a human sees the regression. Approve keeps the changes (and accepts the loop if the iteration
 * had passed its check), reject rolls the workspace back to the iteration's pre-run checkpoint and continues with
 * AGGRESSIVE reinforcement, abort ends the loop.
 */
export async function regressionGate(
  ctx: LoopContext,
  esc: Extract<Next, { kind: 'escalate' }>,
): Promise<LoopResult | undefined> {
  const { m } = ctx;
  const { escalation, n } = esc;
  const numbers = gateNumbers(m.state.records, n);
  const d = await awaitHuman(ctx, escalation.reason, escalation.title, escalation.details, { numbers });
  const rollbackTo = ctx.tracker!.onDecision(d.decision, n);
  const ended = endAtGate(ctx, d, esc.completed);
  if (ended) return ended;
  if (rollbackTo) {
    const r = await ctx.acts.restoreCheckpoint({
      loopId: m.state.loopId,
      workspace: ctx.input.workspace,
      stateDir: ctx.stateDir,
      label: rollbackTo,
      to: 'worktree',
      saveAs: `${postLabel(n)}-rejected`,
    });
    m.state.pendingFeedback.unshift(
      `The reviewer REJECTED iteration ${n} (${escalation.title}). Its changes were rolled back to checkpoint ${rollbackTo} ` +
        `(${r.restored} files restored, ${r.removed} removed). Do the task again without repeating what was detected.`,
    );
  }
  m.setPhase('agent', nowIso());
  await persist(ctx);
  return undefined;
}
