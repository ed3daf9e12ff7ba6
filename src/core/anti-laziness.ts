/**
 * The anti-laziness layer's rules for one loop, pure and deterministic: turns what the detection activities found into
 * intervention events, feedback, a reinforcement level, PDARE recovery and human-gate requests, and picks the best
 * output. The workflow owns one {@link AntiLazinessTracker} next to its LoopMachine; its state lives in
 * `LoopState.persistence` and crosses continue-as-new with it.
 */
import { type AgentFailureKind, isInfraFailure } from './agent-failure';
import { selectBest } from './best-output';
import { detection, worstVerdict, type Detection, type Verdict } from './detections';
import { detectCoverageRegression } from './detectors/coverage-regression';
import { detectFalseCompletion } from './detectors/evidence';
import { detectPlateau, detectStuck, normaliseError, shortHash } from './detectors/stuck';
import type { CoverageCount } from './gates';
import {
  adaptText,
  clarificationQuestion,
  diagnose,
  OVERLOAD_TYPES,
  shouldEscalate,
  strategyFor,
  withoutAsking,
} from './pdare';
import type {
  BestOutput,
  ChangeSummary,
  InterventionEvent,
  AntiLazinessSettings,
  AntiLazinessState,
  ReinforcementLevel,
} from './anti-laziness-types';
import { circuitBreaker, emptyProfile, updateProfile } from './profile';
import { detectionFeedback, levelFor, reinforcementText } from './reinforcement';

/** What the detection pass and the gates found about one iteration. */
export interface IterationFindings {
  n: number;
  now: string;
  claimed: boolean;
  /** The deterministic check / gates accepted the work (before any override). */
  verified: boolean;
  exitCode: number | null;
  changes?: ChangeSummary;
  /** Detections of the workspace pass (inspectIteration). */
  detections: Detection[];
  /** Detections of the gates (test inventory from the runner's listing). */
  gateDetections?: Detection[];
  hallucinated: number;
  deletedTests: string[];
  diffSig?: string;
  stateSig?: string;
  outputSig?: string;
  /** What failed this iteration (check output tail, failed gate messages, agent failure), for stuck detection. */
  errorText?: string;
  quality?: number;
  metrics?: { tests?: number; coverage?: CoverageCount };
  /** Checkpoint labels of this iteration. */
  pre?: string;
  post?: string;
  taskChars: number;
  /**
   * Why the agent run failed, when it did (RunAgentResult.failureKind). An infrastructure kind (auth, usage_limit,
   * overloaded, binary_missing) says nothing about the agent's work: the iteration is not recorded at all.
   */
  failureKind?: AgentFailureKind;
  /**
   * The agent asked a human this iteration (a question gate opens): the iteration is not progress and not idleness,
   * so it adds no fingerprint, no-files count, trajectory point or claim check (the stuck, no-files and
   * circuit-breaker detectors never see it); what it changed in the workspace is still inspected.
   */
  question?: boolean;
}

/** A human gate the layer asks for. */
export interface EscalationRequest {
  reason: 'regression' | 'stuck_loop' | 'circuit_breaker' | 'recovery_exhausted';
  title: string;
  details: string;
}

/** The layer's decision about an iteration. */
export interface IterationDecision {
  /** Every detection of the iteration, as recorded events (PASS ones included). */
  events: InterventionEvent[];
  /** Non-PASS detection types. */
  types: string[];
  verdict: Verdict;
  /** The completion claim is overridden: the task stays open. */
  overrideClaim: boolean;
  /** Feedback items for the next prompt (most important first). */
  feedback: string[];
  escalate?: EscalationRequest;
  /**
   * PDARE chose `ask_clarification` (specification ambiguity) without escalating: the question to put to a human.
   * The workflow opens a question gate with it when questions are on and left; else the adapted prompt asks the agent
   * to state its assumptions, as before.
   */
  clarify?: string;
}

/** Detection types PDARE treats as regressions even at WARN level. */
const REGRESSION_WARNINGS = new Set(['coverage_regression', 'feature_removal']);
/** Critical detection types whose changes a human's `reject` rolls back. */
const NOT_IN_WORKSPACE = new Set(['stuck_loop', 'circuit_breaker']);

const pad3 = (n: number): string => String(n).padStart(3, '0');

/** Checkpoint label of an iteration's pre-run state (`run` > 1: a re-run after a usage limit). */
export const preLabel = (n: number, run = 1): string => `iter-${pad3(n)}-pre${run > 1 ? `-r${run}` : ''}`;
/** Checkpoint label of an iteration's post-run state. */
export const postLabel = (n: number): string => `iter-${pad3(n)}-post`;

/** Fresh layer state. */
export function emptyAntiLazinessState(agent: string): AntiLazinessState {
  return {
    level: 'MINIMAL',
    levelReason: 'iteration 1',
    levelHistory: [],
    baseline: {},
    current: {},
    counts: {},
    recent: [],
    regressions: [],
    recovery: { attempts: 0, retries: 0, inProgress: false, history: [] },
    fingerprints: [],
    trajectory: [],
    profile: emptyProfile(agent),
  };
}

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n) + '…' : s);
const cap = <T>(xs: T[], n: number): T[] => (xs.length > n ? xs.slice(xs.length - n) : xs);

/** The layer's rules over {@link AntiLazinessState}. */
export class AntiLazinessTracker {
  readonly state: AntiLazinessState;

  constructor(
    readonly cfg: AntiLazinessSettings,
    private readonly loopId: string,
    private readonly agent: string,
    state?: AntiLazinessState,
  ) {
    this.state = state ?? emptyAntiLazinessState(agent);
  }

  /**
   * The reinforcement of iteration `n`'s prompt: its level (recorded with the reason when it changes) and the extra
   * prompt sections (the level's template, and PDARE's adapted instructions once). With `canAsk: false` (asking is
   * off, or no question is left) the adapted instructions do not invite a question.
   */
  beforeIteration(
    n: number,
    opts: { canAsk?: boolean } = {},
  ): { level: ReinforcementLevel; reason: string; sections: string[] } {
    const s = this.state;
    const fps = s.fingerprints;
    const last = fps[fps.length - 1];
    const prev = fps[fps.length - 2];
    const { level, reason } = levelFor({
      iteration: n,
      cfg: this.cfg.reinforcement,
      plateau: (s.lastFindings ?? []).some((f) => f.startsWith('quality_plateau')),
      repeatedError: !!(last?.errorSig && prev?.errorSig === last.errorSig),
      forceAggressiveUntil: s.forceAggressiveUntil,
      circuitOpen: s.circuitOpen,
    });
    if (level !== s.level)
      s.levelHistory = cap([...s.levelHistory, { iteration: n, from: s.level, to: level, reason }], 30);
    s.level = level;
    s.levelReason = reason;
    const sections = [reinforcementText(level, { iteration: n, findings: s.lastFindings ?? [] })];
    if (s.adapt) sections.push(opts.canAsk === false ? withoutAsking(s.adapt) : s.adapt);
    s.adapt = undefined;
    return { level, reason, sections };
  }

  /** Records one iteration's findings and decides what follows: events, override, feedback, recovery, escalation. */
  afterIteration(f: IterationFindings): IterationDecision {
    // An overloaded API or a usage limit is not the agent being stuck or lazy: no fingerprint, no-files count,
    // trajectory point or detection, so stuck-loop, no-files and circuit-breaker detectors never see it.
    if (isInfraFailure(f.failureKind))
      return { events: [], types: [], verdict: 'PASS', overrideClaim: false, feedback: [] };
    const { found, overrideClaim } = this.findings(f);
    const verdict = worstVerdict(found);
    const { events, flagged } = this.record(f, found, verdict);
    const feedback = flagged.filter((d) => d.type !== 'test_inventory').map((d) => detectionFeedback(d, f.n));
    const { escalate, clarify } = this.recover(f, flagged);
    return {
      events,
      types: flagged.map((d) => d.type),
      verdict,
      overrideClaim,
      feedback,
      escalate,
      ...(clarify ? { clarify } : {}),
    };
  }

  /** Every finding of the iteration: the workspace's and the gates', false completion, coverage, stuck, plateau, breaker. */
  private findings(f: IterationFindings): { found: Detection[]; overrideClaim: boolean } {
    const s = this.state;
    const on = this.cfg.detectors;
    // The workspace pass names deleted tests from the sources (with bodies, so renames are not deletions); the
    // runner's listing only counts when the sources said nothing about tests.
    const staticInventory = f.detections.some((d) => d.type.startsWith('test_'));
    const found: Detection[] = [
      ...f.detections,
      ...(f.gateDetections ?? []).filter((d) => !(staticInventory && d.type.startsWith('test_'))),
    ].filter((d) => !(f.question && OVERLOAD_TYPES.includes(d.type)));
    // A question is neither progress nor idleness: only what it changed in the workspace is judged.
    if (f.question) return { found, overrideClaim: false };

    let overrideClaim = false;
    if (on.falseCompletion && f.changes) {
      const fc = detectFalseCompletion({
        claimed: f.claimed,
        changes: f.changes,
        verified: f.verified,
        hallucinated: f.hallucinated,
      });
      if (fc) {
        found.push(fc);
        overrideClaim = true;
      }
    }
    found.push(...this.measure(f));
    this.fingerprint(f);
    if (!f.verified) {
      if (on.stuck) found.push(...detectStuck(s.fingerprints, this.cfg.stuck));
      if (on.plateau) {
        const qs = [...s.trajectory.map((p) => p.quality), ...(f.quality !== undefined ? [f.quality] : [])];
        const pl = detectPlateau(qs, this.cfg.plateau);
        if (pl) found.push(pl);
      }
    }

    s.profile = updateProfile(s.profile, { iteration: f.n, changes: f.changes, detections: found });
    if (!s.circuitOpen && circuitBreaker(s.profile, f.n, this.cfg.circuitBreaker)) {
      s.circuitOpen = true;
      found.push(
        detection(
          'circuit_breaker',
          'critical',
          `${this.cfg.circuitBreaker.noFiles} iterations without a written file within the last ${this.cfg.circuitBreaker.window}: reinforcement is now AGGRESSIVE and a human reviews the agent.`,
          s.profile.noFilesIterations.map((n) => `no files written at iteration ${n}`),
        ),
      );
    }
    return { found, overrideClaim };
  }

  /** Baseline and current test count and coverage; a coverage regression against the baseline. */
  private measure(f: IterationFindings): Detection[] {
    const s = this.state;
    if (f.metrics?.tests !== undefined) {
      s.baseline.tests ??= f.metrics.tests;
      s.current.tests = f.metrics.tests;
    }
    if (!f.metrics?.coverage) return [];
    const out: Detection[] = [];
    if (!s.baseline.coverage) {
      s.baseline.coverage = f.metrics.coverage;
      s.baseline.iteration = f.n;
    } else if (this.cfg.detectors.coverage) {
      const cr = detectCoverageRegression(s.baseline.coverage, f.metrics.coverage, this.cfg.coverage.tolerance);
      if (cr) out.push(cr);
    }
    s.current.coverage = f.metrics.coverage;
    s.current.iteration = f.n;
    return out;
  }

  /** The iteration's fingerprint (error, diff, state, output, quality) for the stuck-loop detector; the last 8 kept. */
  private fingerprint(f: IterationFindings): void {
    const s = this.state;
    const error = f.errorText ? normaliseError(f.errorText) : '';
    s.fingerprints = cap(
      [
        ...s.fingerprints,
        {
          n: f.n,
          errorSig: error ? shortHash(error) : undefined,
          error: error ? clip(error, 200) : undefined,
          diffSig: f.diffSig,
          stateSig: f.stateSig,
          outputSig: f.outputSig,
          changed: f.changes ? f.changes.added + f.changes.modified + f.changes.deleted : 0,
          quality: f.quality,
        },
      ],
      8,
    );
  }

  /** Keeps the iteration: trajectory point, best output, intervention events, counts and last findings. */
  private record(
    f: IterationFindings,
    found: Detection[],
    verdict: Verdict,
  ): { events: InterventionEvent[]; flagged: Detection[] } {
    const s = this.state;
    if (f.quality !== undefined)
      s.trajectory = cap(
        [
          ...s.trajectory,
          {
            n: f.n,
            quality: f.quality,
            verified: f.verified,
            checkpoint: f.post,
            regression: verdict === 'BLOCK' || undefined,
          },
        ],
        500,
      );

    // Kept current, so `ralph status --anti-laziness` shows the best iteration while the loop runs.
    s.best = this.best();

    const perType = new Map<string, number>();
    const events: InterventionEvent[] = found.map((d) => {
      const k = (perType.get(d.type) ?? 0) + 1;
      perType.set(d.type, k);
      return {
        ...d,
        id: `${f.n}:${d.type}:${k}`,
        loopId: this.loopId,
        iteration: f.n,
        timestamp: f.now,
        agent: this.agent,
      };
    });
    const flagged = found.filter((d) => d.verdict !== 'PASS');
    for (const d of flagged) {
      s.counts[d.type] = (s.counts[d.type] ?? 0) + 1;
      (s.severities ??= {})[d.severity] = (s.severities[d.severity] ?? 0) + 1;
    }
    s.recent = cap([...s.recent, ...events.filter((e) => e.verdict !== 'PASS')], 20);
    s.lastFindings = flagged.map((d) => `${d.type}: ${clip(d.details, 240)}`);
    if (verdict !== 'BLOCK' && f.post) s.lastGoodCheckpoint = f.post;
    return { events, flagged };
  }

  /**
   * PDARE: Pause (the post-run checkpoint is taken), Diagnose, Adapt, Retry, Escalate. A blocking finding or a
   * regression warning records a regression and either adapts the next prompt or asks for a human.
   */
  private recover(f: IterationFindings, flagged: Detection[]): { escalate?: EscalationRequest; clarify?: string } {
    const s = this.state;
    const trigger = flagged.filter((d) => d.verdict === 'BLOCK' || REGRESSION_WARNINGS.has(d.type));
    if (!trigger.length) {
      if (s.recovery.inProgress) {
        s.recovery.inProgress = false;
        s.recovery.retries = 0;
      }
      return {};
    }
    const diagnosis = diagnose(trigger, {
      iteration: f.n,
      fingerprints: s.fingerprints,
      trajectory: s.trajectory,
      retries: s.recovery.retries,
      taskChars: f.taskChars,
    });
    const strategy = strategyFor(diagnosis);
    const esc = shouldEscalate(trigger, s.recovery.retries, this.cfg.recovery);
    const worst = trigger.some((d) => d.verdict === 'BLOCK') ? 'BLOCK' : 'WARN';
    const inWorkspace = trigger.some((d) => d.verdict === 'BLOCK' && !NOT_IN_WORKSPACE.has(d.type));
    const reg = {
      id: `reg-${pad3(s.regressions.length + 1)}`,
      iteration: f.n,
      types: [...new Set(trigger.map((d) => d.type))],
      severity: worst === 'BLOCK' ? ('critical' as const) : ('warning' as const),
      verdict: worst as Verdict,
      summary: trigger.map((d) => clip(d.details, 200)).join(' | '),
      deletedTests: f.deletedTests.length ? f.deletedTests.slice(0, 20) : undefined,
      recovery: esc.escalate ? ('escalated' as const) : ('retry' as const),
      rollbackTo: inWorkspace || worst === 'WARN' ? f.pre : undefined,
    };
    s.regressions = cap([...s.regressions, reg], 30);
    s.recovery.attempts++;
    s.recovery.inProgress = true;
    const retry = esc.escalate ? 0 : s.recovery.retries + 1;
    s.recovery.history = cap(
      [
        ...s.recovery.history,
        {
          iteration: f.n,
          trigger: reg.types,
          diagnosis,
          strategy,
          retry,
          outcome: esc.escalate ? ('escalated' as const) : ('retry' as const),
          at: f.now,
        },
      ],
      20,
    );
    if (!esc.escalate) {
      s.recovery.retries = retry;
      s.adapt = adaptText(strategy, diagnosis);
      return strategy === 'ask_clarification' && !f.question ? { clarify: clarificationQuestion(diagnosis, f.n) } : {};
    }
    const kind: EscalationRequest['reason'] = reg.types.includes('stuck_loop')
      ? 'stuck_loop'
      : reg.types.includes('circuit_breaker')
        ? 'circuit_breaker'
        : worst === 'BLOCK'
          ? 'regression'
          : 'recovery_exhausted';
    return {
      escalate: {
        reason: kind,
        title: `${reg.id}: ${reg.types.join(', ')} at iteration ${f.n} (${esc.why})`,
        details: regressionDetails(reg, trigger, f.changes, diagnosis, strategy),
      },
    };
  }

  /**
   * Applies a human's answer to the newest escalated regression: approve keeps the changes, reject (the workflow rolls
   * back to the returned checkpoint) continues with AGGRESSIVE reinforcement, abort ends. Returns the checkpoint to
   * roll back to on reject, if the regression is in the workspace.
   */
  onDecision(decision: 'approve' | 'reject' | 'abort', n: number): string | undefined {
    const s = this.state;
    const reg = [...s.regressions].reverse().find((r) => r.recovery === 'escalated');
    const attempt = [...s.recovery.history].reverse().find((a) => a.outcome === 'escalated');
    const rollback = decision === 'reject' ? reg?.rollbackTo : undefined;
    const outcome =
      decision === 'approve' ? 'approved' : decision === 'abort' ? 'aborted' : rollback ? 'rolled_back' : 'rejected';
    if (attempt) attempt.outcome = outcome;
    if (reg) reg.recovery = outcome;
    s.recovery.retries = 0;
    s.recovery.inProgress = false;
    s.circuitOpen = false;
    if (decision === 'reject') {
      s.forceAggressiveUntil = n + 2;
      s.lastFindings = [
        `human_rejected: the reviewer rejected iteration ${n}${reg ? ` (${reg.types.join(', ')})` : ''}${rollback ? `; its changes were rolled back to checkpoint ${rollback}` : ''}`,
        ...(s.lastFindings ?? []),
      ];
    }
    return rollback;
  }

  /** The loop's best output (quality threshold, verified first, highest score), or undefined. */
  best(): BestOutput | undefined {
    if (!this.cfg.bestOutput.enabled) return undefined;
    return selectBest(this.state.trajectory, this.cfg.bestOutput);
  }
}

function regressionDetails(
  reg: { id: string; iteration: number; deletedTests?: string[]; rollbackTo?: string },
  trigger: Detection[],
  changes: ChangeSummary | undefined,
  diagnosis: { cause: string; confidence: number; evidence: string[] },
  strategy: string,
): string {
  const lines: string[] = [];
  for (const d of trigger) {
    lines.push(`${d.type} (${d.severity}): ${clip(d.details, 600)}`);
    for (const e of d.evidence.slice(0, 10)) lines.push(`  - ${e}`);
  }
  if (reg.deletedTests?.length) {
    lines.push('Deleted tests:');
    for (const t of reg.deletedTests) lines.push(`  - ${t}`);
  }
  if (changes)
    lines.push(
      `Diff: ${changes.added} added, ${changes.modified} modified, ${changes.deleted} deleted` +
        (changes.files.length ? ` (${changes.files.slice(0, 10).join(', ')})` : ''),
    );
  lines.push(`Diagnosis: ${diagnosis.cause} (confidence ${diagnosis.confidence}); strategy: ${strategy}`);
  lines.push(
    `Options: approve = keep the changes; reject = ${reg.rollbackTo ? `roll back to checkpoint ${reg.rollbackTo} and ` : ''}continue with AGGRESSIVE reinforcement; abort = stop the loop.`,
  );
  return lines.join('\n');
}
