/**
 * Decide phase: the only place an iteration is judged. The check and the gates decide completion (the agent's claim
 * only triggers them); the anti-laziness layer's verdict can override a claim nothing backs, and can escalate.
 */
import type * as activities from '../../activities';
import { qualityScore, type GateVerdict } from '../../core/gate-rules';
import type { IterationDecision } from '../../core/anti-laziness';
import { postLabel, preLabel } from '../../core/anti-laziness';
import type { AgentRun } from './agent';
import { nowIso, type LoopContext } from './context';
import { checksPassed, originalVerdict, type OriginalChecks, type OriginalVerdict } from './original-checks';
import type { PromptPlan } from './prompt';
import type { Verification } from './verify';
import type { IterationQuestion } from './question';

/** Everything the phases before the decision found out about iteration `n`. */
export interface IterationFacts {
  n: number;
  startedAt: string;
  /** Workflow time at the start of the iteration (ms). */
  t0: number;
  plan: PromptPlan;
  run: AgentRun;
  inspected?: activities.InspectIterationResult;
  verification: Verification;
  /** The verification run against the original checks (verification on, checks passed). */
  original?: OriginalChecks;
  /** The agent asked a human (allowed: a question gate opens; else it was read as text, over the limit). */
  question?: IterationQuestion;
}

/** The judgement of one iteration. */
export interface Judgement {
  claimed: boolean;
  /** The work is done: the check and every gate passed (or, with neither, an unopposed promise). */
  completed: boolean;
  /** Completed on the strength of a check or gates, not of the agent's word. */
  verified: boolean;
  /** Quality score of the gates, when they ran. */
  quality?: number;
  /** The anti-laziness layer's verdict (layer on only). */
  decision?: IterationDecision;
  /** The agent claimed done and the gates refused it. */
  rejected: boolean;
  /** What the original checks said (verification on and the checks passed). */
  original?: OriginalVerdict;
}

/** Judges iteration `f.n`: completion from the check and gates, then the anti-laziness layer's verdict. */
export function judge(ctx: LoopContext, f: IterationFacts): Judgement {
  const { tracker, gateSpecs } = ctx;
  const { check, verdicts, command } = f.verification;
  const agent = f.run.result;
  // A question never accepts work, and asking is neither a claim nor progress.
  const asks = f.question?.allowed === true;
  const claimed = !asks && (agent?.claim.claimed ?? false);
  let completed = !asks && checksPassed(ctx, f.verification, f.run);
  // The work passes only if it passes the ORIGINAL checks too (verification; an agent that changed them is refused).
  const original = f.original ? originalVerdict(ctx, f.n, f.original) : undefined;
  if (original?.rejected) completed = false;
  const verified = completed && (gateSpecs.length > 0 || !!command);
  const quality = verdicts ? qualityScore(verdicts).score : undefined;
  let decision: IterationDecision | undefined;
  if (tracker) {
    for (const v of verdicts ?? []) if (v.idsPath) (tracker.state.testIds ??= {})[v.name] = v.idsPath;
    const failedText = [
      f.run.failure,
      check && !check.passed ? check.outputTail : undefined,
      ...(verdicts ?? []).filter((v) => !v.passed).map((v) => `${v.name}: ${v.message}`),
    ].filter((t): t is string => !!t);
    const metrics = (verdicts ?? []).reduce(
      (acc, v) => ({ tests: acc.tests ?? v.metrics?.tests, coverage: acc.coverage ?? v.metrics?.coverage }),
      {} as NonNullable<GateVerdict['metrics']>,
    );
    const inspected = f.inspected;
    decision = tracker.afterIteration({
      n: f.n,
      now: nowIso(),
      claimed,
      verified,
      exitCode: agent?.exitCode ?? null,
      changes: inspected?.changes,
      detections: [...(inspected?.detections ?? []), ...(original?.detections ?? [])],
      gateDetections: (verdicts ?? []).flatMap((v) => v.detections ?? []),
      hallucinated: inspected?.hallucinated ?? 0,
      deletedTests: inspected?.deletedTests ?? [],
      diffSig: inspected?.diffSig,
      stateSig: inspected?.stateSig,
      outputSig: inspected?.outputSig,
      errorText: failedText.join('\n') || undefined,
      quality,
      metrics,
      pre: agent?.checkpoint ? preLabel(f.n) : undefined,
      post: inspected ? postLabel(f.n) : undefined,
      taskChars: (ctx.input.prompt ?? '').length,
      // Infrastructure failures (overloaded API, usage limit...) are not the agent's doing: the detectors skip them.
      failureKind: agent?.failureKind,
      ...(asks ? { question: true } : {}),
    });
    // A claim nothing backs is overridden: the task stays open (only a promise-only loop would have accepted it).
    if (decision.overrideClaim && completed && !verified) completed = false;
  }
  const rejected = gateSpecs.length > 0 && claimed && !completed && verdicts !== undefined;
  return { claimed, completed, verified, quality, decision, rejected, original };
}
