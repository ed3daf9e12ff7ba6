/**
 * Verification (patch `verification-v1`): the loop accepts only work that passes the ORIGINAL checks. At loop start
 * the protected set and a baseline are recorded; when an iteration's check and gates pass, they are re-run in a
 * verification tree with every protected file restored. Failing there is `tampered_verification` (the claim is
 * rejected and a human decides); passing with protected files changed is `protected_edit` (a human decides, unless
 * `onProtectedEdit` is `revert` or `allow`). Reject rolls the workspace back to the iteration's pre-run checkpoint.
 */
import { log, patched } from '@temporalio/workflow';
import type * as activities from '../../activities';
import type { ResolvedLoopInput } from '../../config/loop-input';
import type { Detection } from '../../core/detections';
import { postLabel, preLabel } from '../../core/anti-laziness';
import type { GateEvidence } from '../../core/verification/evidence';
import {
  benignTestEditDetection,
  gateEvidence,
  protectedEditDetection,
  protectedEditGate,
  tamperedGate,
  tamperedVerificationDetection,
  type VerificationSummary,
} from '../../core/verification/messages';
import type { LoopResult } from '../../core/loop-types';
import type { AgentRun } from './agent';
import type { RalphLoopCarry } from './carry';
import { nowIso, type LoopContext, type Next } from './context';
export type { VerificationBaseline } from './context';
import { describeActivityFailure, rethrowHostMove } from './failures';
import { awaitHuman, endAtGate } from './human-gate';
import { persist } from './persist';
import type { Verification } from './verify';

/** Patch id of verification: loops recorded before it replay without the baseline and the verification run. */
export const VERIFICATION_PATCH = 'verification-v1';

/** What the verification run said about an iteration whose checks passed. */
export interface OriginalChecks {
  result?: activities.VerifyWorkResult;
  /** The verification run could not run (it then never counts as passing). */
  error?: string;
  /** `onProtectedEdit: revert` put the protected files back in the workspace. */
  reverted?: activities.RevertProtectedChangesResult;
}

/**
 * Starts verification for this run: records the baseline at the first run's start (the carry holds it for later
 * runs). A baseline that can't be recorded leaves verification off for the loop, with a warning: it happens before
 * any agent runs, so no agent can cause it.
 */
export async function startVerification(ctx: LoopContext, carry?: RalphLoopCarry): Promise<void> {
  // Inputs carried from before verification existed have none.
  const v: ResolvedLoopInput['verification'] | undefined = ctx.input.verification;
  if (!v?.enabled || !patched(VERIFICATION_PATCH)) return;
  if (carry) {
    ctx.verification = carry.verification;
    return;
  }
  const { input, m } = ctx;
  try {
    const r = await ctx.acts.recordVerificationBaseline({
      loopId: m.state.loopId,
      workspace: input.workspace,
      stateDir: ctx.stateDir,
      prompt: input.prompt,
      promptFile: input.promptFile,
      commands: [
        ...(input.completion.command ? [input.completion.command] : []),
        ...ctx.gateSpecs.map((g) => g.command),
      ],
      verification: { protect: v.protect, allow: v.allow, hookPolicy: v.hookPolicy },
    });
    ctx.verification = { manifestPath: r.manifestPath, integrity: r.integrity, protectedCount: r.protectedCount };
    log.info(`verification baseline: ${r.protectedCount} protected files, ${r.allowedCount} allowed (${r.ref})`);
  } catch (e) {
    rethrowHostMove(e);
    log.warn(
      `verification is off for this loop: the baseline could not be recorded (${describeActivityFailure(e).message})`,
    );
  }
}

/** Whether iteration's check and gates accepted the work (before verification and the layer's overrides). */
export function checksPassed(ctx: LoopContext, v: Verification, run: AgentRun): boolean {
  const claimed = run.result?.claim.claimed ?? false;
  const gatesPassed = v.verdicts ? v.verdicts.every((g) => g.passed) : false;
  return ctx.gateSpecs.length
    ? gatesPassed && (v.command ? v.check?.passed === true : true)
    : v.command
      ? v.check?.passed === true
      : claimed && !run.failure;
}

/**
 * Verify-against-the-original phase: when iteration `n`'s check and gates passed, re-runs them in a verification tree
 * (verifyWork). With `onProtectedEdit: revert` and a passing verification, puts the protected files back. Undefined
 * when verification is off or there was nothing to verify (checks failed, or a promise-only loop).
 */
export async function originalChecksPhase(
  ctx: LoopContext,
  n: number,
  run: AgentRun,
  inspected: activities.InspectIterationResult | undefined,
  v: Verification,
): Promise<OriginalChecks | undefined> {
  const base = ctx.verification;
  if (!base || !checksPassed(ctx, v, run) || (!v.command && !ctx.gateSpecs.length)) return undefined;
  const { m, input } = ctx;
  m.setPhase('verifying', nowIso());
  const out: OriginalChecks = {};
  try {
    out.result = await ctx.acts.verifyWork({
      loopId: m.state.loopId,
      iteration: n,
      workspace: input.workspace,
      stateDir: ctx.stateDir,
      post: inspected ? postLabel(n) : undefined,
      command: v.command,
      timeoutSeconds: input.completion.timeoutSeconds,
      gates: ctx.gateSpecs,
      integrity: base.integrity,
      install: input.verification.install,
    });
  } catch (e) {
    rethrowHostMove(e);
    out.error = describeActivityFailure(e).message;
    return out;
  }
  const policy = input.verification.onProtectedEdit;
  if (out.result.passed && out.result.protectedChanges.length && policy === 'revert') {
    try {
      out.reverted = await ctx.acts.revertProtectedChanges({
        loopId: m.state.loopId,
        iteration: n,
        workspace: input.workspace,
        stateDir: ctx.stateDir,
        baselineCommit: base.integrity.commit,
      });
    } catch (e) {
      rethrowHostMove(e);
      // Not reverted: the protected edit then goes to a human like under the default policy.
      log.warn(`could not revert the protected changes: ${describeActivityFailure(e).message}`);
    }
  }
  return out;
}

/** What the original checks mean for the iteration's judgement. */
export interface OriginalVerdict {
  /** Detections for the layer's events and the agent's feedback. */
  detections: Detection[];
  /** The claim is rejected: the original checks fail (or could not run). */
  rejected: boolean;
  summary?: VerificationSummary;
  /** A human must decide before the loop accepts. */
  gate?: {
    reason: 'tampered_verification' | 'protected_edit' | 'unchecked_cheating';
    title: string;
    details: string;
    evidence?: GateEvidence;
  };
  /** Why the loop accepts without a human although protected files changed (reverted, or allowed). */
  note?: string;
}

/** Judges the verification run of iteration `n` (pure: the workflow's decide phase calls it). */
export function originalVerdict(ctx: LoopContext, n: number, o: OriginalChecks): OriginalVerdict {
  const r = o.result;
  const summary: VerificationSummary = {
    passed: !o.error && !!r?.passed,
    ran: r?.ran ?? false,
    protectedChanges: r?.protectedChanges ?? [],
    environmentChanges: r?.environmentChanges,
    madeTheDifference: r?.madeTheDifference,
    failedPass: r?.failedPass,
    failureTail: o.error ? `could not re-run the original checks: ${o.error}` : r?.failureTail,
    diffPath: r?.diffPath,
    diffSummary: r?.diffSummary,
    ...(r?.diff ? { diff: r.diff } : {}),
    ...(r?.failure && !o.error ? { failure: r.failure } : {}),
  };
  const cheating = (r?.detections ?? []).filter((d) => d.verdict !== 'PASS');
  if (!summary.passed) {
    return {
      detections: [tamperedVerificationDetection(summary), ...cheating],
      rejected: true,
      summary,
      gate: { reason: 'tampered_verification', ...tamperedGate(n, summary), evidence: gateEvidence(summary, true) },
    };
  }
  const detections: Detection[] = [...(r?.detections ?? [])];
  if (r?.benignTestEdits?.length) detections.push(benignTestEditDetection(r.benignTestEdits));
  const policy = ctx.input.verification.onProtectedEdit;
  let gate: OriginalVerdict['gate'];
  let note: string | undefined;
  if (summary.protectedChanges.length) {
    const d = protectedEditDetection(summary.protectedChanges);
    if (o.reverted) {
      d.details += ` They were reverted (onProtectedEdit: revert): ${o.reverted.paths.join(', ')}.`;
      note = `${o.reverted.paths.length} protected change(s) reverted`;
    } else if (policy === 'allow') note = `${summary.protectedChanges.length} protected change(s) allowed`;
    else gate = { reason: 'protected_edit', ...protectedEditGate(n, summary), evidence: gateEvidence(summary, false) };
    detections.unshift(d);
  }
  const critical = cheating.filter((d) => d.verdict === 'BLOCK');
  if (!gate && critical.length)
    gate = {
      reason: 'unchecked_cheating',
      title: `Iteration ${n}: the work passes the original checks, but looks written to fool them`,
      details: [
        ...critical.flatMap((d) => [`${d.type}: ${d.details}`, ...d.evidence.map((e) => `  - ${e}`)]),
        "Options: approve = accept the work; reject = roll back to the iteration's pre-run checkpoint and continue; abort = stop the loop.",
      ].join('\n'),
    };
  return { detections, rejected: false, summary, gate, note };
}

/**
 * The verification gate: approve accepts the work as it is (by the human), abort ends the loop, reject rolls the
 * workspace back to the iteration's pre-run checkpoint (when it has one) and goes on with the feedback. When the
 * anti-laziness layer escalated the same iteration, this gate is its answer too.
 */
export async function verificationGate(
  ctx: LoopContext,
  g: Extract<Next, { kind: 'verification-gate' }>,
): Promise<LoopResult | undefined> {
  const { m } = ctx;
  const d = await awaitHuman(ctx, g.reason, g.title, g.details, { evidence: g.evidence });
  const trackerRollback = g.trackerEscalated ? ctx.tracker?.onDecision(d.decision, g.n) : undefined;
  const ended = endAtGate(ctx, d);
  if (ended) return ended;
  const rollbackTo = trackerRollback ?? g.rollbackTo;
  if (rollbackTo) {
    const r = await ctx.acts.restoreCheckpoint({
      loopId: m.state.loopId,
      workspace: ctx.input.workspace,
      stateDir: ctx.stateDir,
      label: rollbackTo,
      to: 'worktree',
      saveAs: `${postLabel(g.n)}-rejected`,
    });
    m.state.pendingFeedback.unshift(
      `The reviewer REJECTED iteration ${g.n} (${g.title}). Its changes were rolled back to checkpoint ${rollbackTo} ` +
        `(${r.restored} files restored, ${r.removed} removed). Do the task again: make the product code pass the ` +
        'original tests and checks, and do not change them.',
    );
  } else
    m.state.pendingFeedback.unshift(
      `The reviewer REJECTED iteration ${g.n} (${g.title}). Make the product code pass the original tests and checks, and do not change them.`,
    );
  m.setPhase('agent', nowIso());
  await persist(ctx);
  return undefined;
}

/** The pre-run checkpoint a reject of iteration `n` rolls back to, when the run recorded one. */
export const rollbackLabel = (n: number, run: AgentRun): string | undefined =>
  run.result?.checkpoint ? preLabel(n) : undefined;
