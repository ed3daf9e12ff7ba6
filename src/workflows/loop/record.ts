/**
 * Record phase: the iteration's compact record (what ran, what the checks said, what the detectors saw) and the
 * feedback for the next prompt, most important first: what failed (gates, then the check), how the agent cheated
 * (detectors), bounded in size. Updates the machine; writing it out is the caller's `persist`.
 */
import { numbersOf } from '../../core/gate-numbers';
import { feedbackFor } from '../../core/feedback';
import { budgetState, gateFeedback, isSuspiciousClaim, type GateVerdict } from '../../core/gate-rules';
import type { IterationOutcome, IterationRecord } from '../../core/loop-types';
import { postLabel, preLabel } from '../../core/anti-laziness';
import { MAX_FEEDBACK_CHARS } from '../../core/prompt';
import { rotateFeedback } from '../../core/reinforcement';
import { tamperedFeedback } from '../../core/verification/messages';
import { overLimitFeedback } from '../../core/questions';
import { nowIso, type LoopContext } from './context';
import type { IterationFacts, Judgement } from './decide';

/** The recorded iteration and what the next step needs from its bookkeeping. */
export interface Recorded {
  record: IterationRecord;
  /** Consecutive rejections by the gates, this one included. */
  streak: number;
  maxRetries: number;
  failedGates: GateVerdict[];
  budget?: ReturnType<typeof budgetState>;
}

const tokensOf = (u: { inputTokens?: number; outputTokens?: number } | undefined): number | undefined =>
  u ? (u.inputTokens ?? 0) + (u.outputTokens ?? 0) : undefined;

/** Builds iteration `f.n`'s record and next-prompt feedback, and records both in the machine. */
export function recordIteration(ctx: LoopContext, f: IterationFacts, j: Judgement): Recorded {
  const { m } = ctx;
  const agent = f.run.result;
  const record = buildRecord(f, j);
  const iterTokens = tokensOf(agent?.usage);
  const earlier = m.state.records.map((r) => tokensOf(r.agent.usage)).filter((t): t is number => t !== undefined);
  if (
    isSuspiciousClaim(
      { claimed: j.claimed, claimedFiles: agent?.claimedFiles.length ?? 0, tokens: iterTokens },
      earlier,
    )
  )
    record.flags = ['suspicious_claim'];
  if (ctx.tracker) addDetections(record, f, j);
  const r = iterationFeedback(ctx, f, j, record, iterTokens);
  m.recordIteration(record, r.feedback, nowIso());
  return { record, streak: r.streak, maxRetries: r.maxRetries, failedGates: r.failedGates, budget: r.budget };
}

/** How the iteration ended, as its record says. */
function outcomeOf(f: IterationFacts, j: Judgement): IterationOutcome {
  const { run } = f;
  const agent = run.result;
  if (j.completed) return 'completed';
  if (f.question?.allowed) return 'question';
  if (run.timedOut) return 'agent_timeout';
  if (run.failure || (agent && agent.exitCode !== 0)) return 'agent_failed';
  return j.claimed ? 'claim_rejected' : 'continue';
}

/** The iteration's record: the agent's run, the check, the gates. */
function buildRecord(f: IterationFacts, j: Judgement): IterationRecord {
  const { n, run } = f;
  const agent = run.result;
  const { check, verdicts, gatesWallMs } = f.verification;
  const record: IterationRecord = {
    n,
    startedAt: f.startedAt,
    durationMs: Date.now() - f.t0,
    agent: {
      exitCode: agent?.exitCode ?? null,
      durationMs: agent?.durationMs ?? 0,
      claimed: j.claimed,
      claimVia: agent?.claim.via,
      failure: run.failure,
      timedOut: run.timedOut || undefined,
      outputBytes: agent?.outputBytes ?? 0,
      claimedFiles: agent?.claimedFiles.length ?? 0,
      usage: agent?.usage,
      attempts: run.attempts,
      sandbox: agent?.sandbox?.state,
      sandboxDenied: agent?.sandbox?.denied?.map((d) => d.path),
    },
    check: check
      ? {
          passed: check.passed,
          exitCode: check.exitCode,
          durationMs: check.durationMs,
          timedOut: check.timedOut || undefined,
        }
      : undefined,
    outcome: outcomeOf(f, j),
    artifactDir: agent?.artifactDir ?? '',
  };
  if (f.question?.allowed) record.question = f.question.text.slice(0, 300);
  if (verdicts) {
    record.gates = verdicts.map((v) => ({
      name: v.name,
      passed: v.passed,
      expected: v.expected,
      actual: v.actual,
      durationMs: v.durationMs,
    }));
    record.quality = j.quality;
    record.numbers = numbersOf(n, verdicts);
    record.gatesWallMs = gatesWallMs;
    if (j.rejected) record.rejected = true;
  }
  return record;
}

/** The anti-laziness layer's part of the record: changes, level, checkpoints, findings, an overridden claim. */
function addDetections(record: IterationRecord, f: IterationFacts, j: Judgement): void {
  const { decision } = j;
  record.changes = f.inspected?.changes;
  record.level = f.plan.reinforcement?.level;
  record.checkpoints = {
    pre: f.run.result?.checkpoint ? preLabel(f.n) : undefined,
    post: f.inspected ? postLabel(f.n) : undefined,
  };
  if (decision?.types.length) {
    record.detections = decision.types;
    record.verdict = decision.verdict;
  }
  if (decision?.overrideClaim) record.claimOverridden = true;
}

/** The next prompt's feedback: the check's, the gates', a suspicious claim, the budget, tampering, the detectors'. */
function iterationFeedback(
  ctx: LoopContext,
  f: IterationFacts,
  j: Judgement,
  record: IterationRecord,
  iterTokens: number | undefined,
): Omit<Recorded, 'record'> & { feedback: string[] } {
  const { m, input } = ctx;
  const { run } = f;
  const agent = run.result;
  const { check, verdicts, command } = f.verification;
  const { claimed, completed, decision, rejected } = j;
  // A question's iteration gets the answer in the next prompt, not the check's feedback.
  let feedback =
    completed || f.question?.allowed
      ? []
      : feedbackFor({
          claimed,
          agentExitCode: agent?.exitCode ?? null,
          agentFailure: run.timedOut ? undefined : run.failure,
          agentTimedOut: run.timedOut,
          agentOutputTail: agent?.finalTextTail,
          iterationTimeoutSeconds: input.iterationTimeoutSeconds,
          check:
            check && command
              ? {
                  command,
                  passed: check.passed,
                  exitCode: check.exitCode,
                  outputTail: check.outputTail,
                  timedOut: check.timedOut,
                }
              : undefined,
          promiseOnly: !command,
        });
  const gatesCfg = input.gates;
  const streak = verdicts ? m.recordGates(verdicts, rejected) : (m.state.rejectionStreak ?? 0);
  if (rejected) record.rejection = streak;
  const maxRetries = gatesCfg?.rejection.maxRetries ?? 3;
  const failedGates = verdicts?.filter((v) => !v.passed) ?? [];
  if (failedGates.length && !completed)
    feedback.unshift(gateFeedback(failedGates, { claimed, rejection: streak, maxRetries }));
  if (record.flags?.includes('suspicious_claim'))
    feedback.push(
      'Your completion claim came with far less work than earlier iterations and no changed files: make the changes in the workspace, then list them under ## Evidence.',
    );
  const budget = budgetState(
    {
      tokens: m.state.totals.inputTokens + m.state.totals.outputTokens + (iterTokens ?? 0),
      costUsd: m.state.totals.costUsd + (agent?.usage?.costUsd ?? 0),
    },
    gatesCfg?.tokenBudget,
    m.state.budgetScale ?? 1,
  );
  if (
    budget &&
    !completed &&
    !budget.exhausted &&
    budget.left <= (gatesCfg?.tokenBudget?.warnThreshold ?? 0.2) &&
    !m.state.budgetWarned
  ) {
    m.state.budgetWarned = true;
    feedback.push(
      `Token budget: ${Math.round(budget.left * 100)}% left (${budget.used}). Finish what the task requires first.`,
    );
  }
  if (f.question && !f.question.allowed) feedback.push(overLimitFeedback(input.questions?.max ?? 0));
  // First of all: the claim was refused because the agent changed the checks (verification).
  if (j.original?.rejected && j.original.summary) feedback.unshift(tamperedFeedback(j.original.summary));
  if (decision && !completed) {
    // After the check's and the gates' own feedback (what failed), what the detectors saw (how the agent cheated).
    feedback.push(...decision.feedback);
    feedback = rotateFeedback(feedback, MAX_FEEDBACK_CHARS);
  }
  return { feedback, streak, maxRetries, failedGates, budget };
}
