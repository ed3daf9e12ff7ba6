import type { GateEvidence } from './verification/evidence';
import type { SandboxState, SandboxStatus } from './sandbox';
import type { ChangeSummary, AntiLazinessState, ReinforcementLevel } from './anti-laziness-types';
import type { HostBinding } from './hosts';
import type { GateNumbers, QualityNumbers } from './gate-numbers';
import type { RoutingCarryIn, RoutingState } from './routing/tracker';
import type { PendingAnswer, QuestionsState, QuestionSource } from './questions';

/**
 * Types of the loop's durable state: what `status` returns, what `state.json` holds and what continue-as-new carries.
 * Plain JSON-friendly data: it crosses the workflow/activity/client boundaries.
 */

/** Where a loop stands. Terminal: accepted, aborted, failed. */
export const LoopStatuses = {
  running: 'running',
  paused: 'paused',
  awaiting_human: 'awaiting_human',
  sleeping: 'sleeping',
  accepted: 'accepted',
  aborted: 'aborted',
  failed: 'failed',
} as const;
/** One of {@link LoopStatuses}. */
export type LoopStatus = (typeof LoopStatuses)[keyof typeof LoopStatuses];
/** Statuses after which the loop takes no more work. */
export const TERMINAL_STATUSES: readonly LoopStatus[] = ['accepted', 'aborted', 'failed'];

/** What the loop is doing right now (finer than status); `starting` also means "between iterations". */
export type LoopPhase =
  | 'starting'
  | 'agent'
  | 'inspecting'
  | 'checking'
  | 'gates'
  | 'verifying'
  | 'paused'
  | 'awaiting_human'
  | 'sleeping_usage_limit'
  /** Re-creating the workspace on another host (`ralph move`). */
  | 'moving'
  | 'done';

/** How one iteration ended. */
export type IterationOutcome =
  | 'completed'
  | 'continue'
  | 'claim_rejected'
  | 'agent_failed'
  | 'agent_timeout'
  | 'aborted'
  /** The agent asked a human (a question gate opened): not progress, not a failure. */
  | 'question';

/** Token usage and cost of one agent run. */
export interface UsageRecord {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/** Compact record of one iteration, kept in workflow state; the full output lives in artifact files. */
export interface IterationRecord {
  n: number;
  startedAt: string;
  durationMs: number;
  agent: {
    exitCode: number | null;
    /** Wall time of the agent process itself (0 when it never ran). */
    durationMs: number;
    claimed: boolean;
    claimVia?: 'promise' | 'exit_signal';
    /** Set when the agent activity failed after its retries (timeout, crash...). */
    failure?: string;
    timedOut?: boolean;
    outputBytes: number;
    claimedFiles: number;
    usage?: UsageRecord;
    attempts: number;
    /** How the agent ran: `enforced` (sandboxed), `unavailable` (auto, no sandbox here) or `off`. */
    sandbox?: SandboxState;
    /** Writes the sandbox refused, as the agent's output reported them (evidence, not a verdict). */
    sandboxDenied?: string[];
  };
  check?: { passed: boolean; exitCode: number | null; durationMs: number; timedOut?: boolean };
  outcome: IterationOutcome;
  /** Quality gates run this iteration: name, verdict, measured value. */
  gates?: { name: string; passed: boolean; expected?: string; actual: string; durationMs: number }[];
  /** Wall time of the gates phase (gates run in parallel: close to the slowest gate). */
  gatesWallMs?: number;
  /** Quality score 0-100 from the gate verdicts (core/gate-rules qualityScore). */
  quality?: number;
  /** What the gates measured: tests, failing tests, coverage, type/lint/build errors. */
  numbers?: QualityNumbers;
  /** The agent's completion claim was rejected by the gates (counts toward the rejection policy). */
  rejected?: boolean;
  /** Which rejection in a row this was (the policy escalates at `rejection.maxRetries`). */
  rejection?: number;
  /** Deterministic red flags, e.g. `suspicious_claim` (done claimed with little work and no files). */
  flags?: string[];
  /** What the agent run changed in the workspace (anti-laziness layer on). */
  changes?: ChangeSummary;
  /** Types of the non-PASS detections of this iteration, e.g. `['no_files_written', 'false_completion']`. */
  detections?: string[];
  /** The worst verdict of those detections. */
  verdict?: 'PASS' | 'WARN' | 'BLOCK';
  /** Reinforcement level of this iteration's prompt. */
  level?: ReinforcementLevel;
  /** The completion claim was overridden (false completion): nothing backed it. */
  claimOverridden?: boolean;
  /** Pre-run and post-run checkpoint labels. */
  checkpoints?: { pre?: string; post?: string };
  /** The question the agent asked this iteration (first 300 characters), when it opened a question gate. */
  question?: string;
  /** Folder of this iteration's artifacts (prompt, output, check log, record). */
  artifactDir: string;
}

/** Choices a human gate offers (`answer`: only a question gate). */
export type GateOption = 'approve' | 'reject' | 'abort' | 'answer';

/** Why a human gate opened. Later features add kinds; the mechanism stays the same. */
export type GateReason = 'max_iterations' | (string & {});

/** A decision the loop waits for, indefinitely and at no cost. */
export interface HumanGate {
  id: string;
  reason: GateReason;
  title: string;
  details: string;
  /** What the human judges besides the text: the protected files' diff per file, the check's failure excerpt. */
  evidence?: GateEvidence;
  options: GateOption[];
  iteration: number;
  openedAt: string;
  /** Regression and stuck-loop gates: what the gates measured before and at the iteration. */
  numbers?: GateNumbers;
  /** A question gate: the question, the options the agent listed, who asked, the iteration's diff. */
  question?: { text: string; options: string[]; source: QuestionSource; diff: string };
}

/** A human's answer to a gate. */
export interface GateDecision {
  gateId: string;
  decision: GateOption;
  by?: string;
  reason?: string;
  guidance?: string;
  extraIterations?: number;
  /** `answer`: the answer to the agent's question. */
  text?: string;
  at: string;
}

/** A signal as the loop saw it: applied, or ignored with why. */
export interface SignalEvent {
  name: string;
  at: string;
  by?: string;
  reason?: string;
  applied: boolean;
  note: string;
}

/** Running totals of a loop, kept exact across continue-as-new. */
export interface LoopTotals {
  iterations: number;
  agentRuns: number;
  claims: number;
  checksRun: number;
  checksPassed: number;
  checksFailed: number;
  agentFailures: number;
  usageLimitWaits: number;
  usageLimitWaitMs: number;
  humanGates: number;
  /** Completion claims rejected by the quality gates. */
  rejections?: number;
  gateRuns?: number;
  gateMs?: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  agentMs: number;
  checkMs: number;
}

/** How a loop ended. */
export interface LoopResult {
  loopId: string;
  status: 'accepted' | 'aborted' | 'failed';
  /** Who accepted: the completion check, the agent's promise (no check configured), or a human. */
  acceptedBy?: 'check' | 'promise' | 'human';
  reason: string;
  by?: string;
  iterations: number;
  totals: LoopTotals;
  stateFile: string;
  /** The last iteration: how it ended and what the detectors flagged (a parent project classifies failures by it). */
  last?: { outcome: IterationOutcome; detections?: string[]; agentTimedOut?: boolean };
  /** Automatic routing: the agent, domain and context the loop ended with (a project passes them to the next task). */
  routing?: RoutingCarryIn;
}

/** The full, queryable state of a loop (the `status` query and `state.json`). */
export interface LoopState {
  loopId: string;
  status: LoopStatus;
  phase: LoopPhase;
  /** Iterations finished so far. */
  iteration: number;
  maxIterations: number;
  agent: string;
  workspace: string;
  stateDir: string;
  paused: boolean;
  pendingGate?: HumanGate;
  sleepingUntil?: string;
  /** The most recent iteration records (older ones are on disk under iterations/). */
  records: IterationRecord[];
  decisions: GateDecision[];
  signals: SignalEvent[];
  totals: LoopTotals;
  /** Feedback that goes into the next prompt. */
  pendingFeedback: string[];
  /** Human guidance that goes into the next prompt. */
  pendingGuidance?: string;
  /** A human's answer to the agent's question, for the next prompt. */
  pendingAnswer?: PendingAnswer;
  /** Questions asked and answered (absent until the first question of a loop that allows them). */
  questions?: QuestionsState;
  /** Rejected completion claims since the last accepted human decision (the rejection policy counts these). */
  rejectionStreak?: number;
  /** Per-gate runs, passes and time, for `ralph stats`. */
  gateStats?: Record<string, { runs: number; passed: number; ms: number; firstTryPassed?: boolean; kind?: string }>;
  /** Multiplier of the token budget (a human's `reject` at the budget gate adds 0.5). */
  budgetScale?: number;
  /** The token budget warning was given. */
  budgetWarned?: boolean;
  /** The anti-laziness layer: detections, reinforcement, recovery, best output (absent when it is off). */
  persistence?: AntiLazinessState;
  /** The host holding the workspace (multi-host deployments only). */
  host?: HostBinding;
  /** The agent sandbox as the last run (or, before the first, the validating worker) found it. */
  sandbox?: SandboxStatus;
  /** Automatic agent routing (absent when no profiles are configured): active agent, domain, handoff chain, breaker. */
  routing?: RoutingState & { profiles: string[] };
  /** How many times the workflow continued-as-new. */
  run: number;
  startedAt: string;
  updatedAt: string;
  labels: Record<string, string>;
  result?: LoopResult;
}

/** How many iteration records the state keeps in memory and carries across continue-as-new. */
export const RECORDS_KEPT = 50;
/** How many signal events and decisions the state keeps. */
export const EVENTS_KEPT = 30;

/** Empty totals. */
export const emptyTotals = (): LoopTotals => ({
  iterations: 0,
  agentRuns: 0,
  claims: 0,
  checksRun: 0,
  checksPassed: 0,
  checksFailed: 0,
  agentFailures: 0,
  usageLimitWaits: 0,
  usageLimitWaitMs: 0,
  humanGates: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  agentMs: 0,
  checkMs: 0,
});
