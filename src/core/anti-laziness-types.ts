/**
 * Types of the anti-laziness layer ("persistence"): intervention events, per-iteration fingerprints, reinforcement,
 * PDARE recovery, best output and the agent's behaviour profile. Plain JSON data: it lives in the loop's state, crosses
 * continue-as-new and is written to `.ralph/loops/<id>/interventions/events.json`, `report.md` and `analytics.json`.
 */
import type { Detection, Severity, Verdict } from './detections';

/** How hard the next prompt pushes the agent. */
export const ReinforcementLevels = ['MINIMAL', 'STANDARD', 'AGGRESSIVE'] as const;
export type ReinforcementLevel = (typeof ReinforcementLevels)[number];

/** A detection as recorded: one line of `interventions/events.json`. Idempotent by `id`. */
export interface InterventionEvent extends Detection {
  /** `<iteration>:<type>:<n>`: the same detection of the same iteration always gets the same id. */
  id: string;
  loopId: string;
  iteration: number;
  /** ISO time the workflow recorded it. */
  timestamp: string;
  agent: string;
}

/** What an agent run changed in the workspace (from the pre-run and post-run checkpoints). */
export interface ChangeSummary {
  added: number;
  modified: number;
  deleted: number;
  /** Up to 50 changed paths, each prefixed `A `, `M ` or `D `. */
  files: string[];
}

/**
 * The small signature of one iteration that stuck-loop detection compares. Hashes are short hex strings computed by
 * {@link import('./detectors/stuck').shortHash}; absent means "not known" (never equal to anything).
 */
export interface IterationFingerprint {
  n: number;
  /** Hash of the normalised failure (check output tail + failed gate messages); absent when nothing failed. */
  errorSig?: string;
  /** The normalised failure itself, clipped to 200 characters (for the report and the human gate). */
  error?: string;
  /** Hash of the unified diff this iteration made; absent when it changed nothing. */
  diffSig?: string;
  /** Hash of the workspace state after the iteration (the post-run checkpoint's tree or manifest). */
  stateSig?: string;
  /** Hash of the agent's normalised final answer. */
  outputSig?: string;
  /** Files changed by this iteration. */
  changed: number;
  /** Quality score 0-100 when gates ran. */
  quality?: number;
}

/** Root causes PDARE tells apart. */
export const DiagnosisCauses = [
  'cognitive_load',
  'task_complexity',
  'specification_ambiguity',
  'reward_hacking',
] as const;
export type DiagnosisCause = (typeof DiagnosisCauses)[number];

/** PDARE's diagnosis: the likeliest cause, how sure the rules are (0..1), and the facts behind it. */
export interface Diagnosis {
  cause: DiagnosisCause;
  confidence: number;
  evidence: string[];
}

/** What PDARE does about a diagnosis. */
export const Strategies = ['decompose', 'simpler_approach', 'ask_clarification', 'block'] as const;
export type Strategy = (typeof Strategies)[number];

/** One PDARE pass. */
export interface RecoveryAttempt {
  iteration: number;
  /** Detection types that triggered it. */
  trigger: string[];
  diagnosis: Diagnosis;
  strategy: Strategy;
  /** 1-based retry number within the current recovery; 0 when it escalated straight away. */
  retry: number;
  /** What happened: retried with the adapted prompt, or escalated to a human (and their answer once known). */
  outcome: 'retry' | 'escalated' | 'approved' | 'rolled_back' | 'rejected' | 'aborted';
  at: string;
}

/** A regression the loop saw (test deletion, coverage drop, feature removal, validation bypass, stuck loop...). */
export interface RegressionRecord {
  /** `reg-001`, `reg-002`... in order of detection. */
  id: string;
  iteration: number;
  /** Detection types, e.g. `['test_deletion']`. */
  types: string[];
  severity: Severity;
  verdict: Verdict;
  /** One line: what regressed. */
  summary: string;
  /** Names of deleted tests (`file: full name`), when tests were deleted. */
  deletedTests?: string[];
  /** How it was handled; updated when a human answers. */
  recovery: 'feedback' | 'retry' | 'escalated' | 'approved' | 'rolled_back' | 'rejected' | 'aborted';
  /** Checkpoint label the workspace can be rolled back to (the iteration's pre-run checkpoint). */
  rollbackTo?: string;
}

/** An agent's behaviour over a loop (and, summed over loops, over all of them: `ralph profile --agent`). */
export interface AgentProfile {
  agent: string;
  iterations: number;
  /** Iterations in which the agent exited 0 or claimed done but changed no file. */
  noFilesCount: number;
  /** Completion claims overridden because nothing backed them. */
  falseCompletions: number;
  /** Claimed files that were not in the diff or did not exist. */
  hallucinatedFiles: number;
  /** Files changed, summed. */
  filesChanged: number;
  /** filesChanged / iterations, 2 decimals. */
  filesPerIteration: number;
  /** Count of every detection type. */
  detections: Record<string, number>;
  /** Iterations with a no-files event, most recent last (the circuit breaker looks at these). */
  noFilesIterations: number[];
}

/** The iteration chosen as the loop's best output. */
export interface BestOutput {
  iteration: number;
  quality: number;
  /** The completion check / gates passed at that iteration. */
  verified: boolean;
  /** Checkpoint label holding that iteration's workspace (its post-run checkpoint). */
  checkpoint: string;
  /** Why it was chosen, e.g. "best quality 85% at iteration 2, not final (iteration 4: 80%)". */
  reason: string;
  /** Set when it was restored: `worktree` or the branch name. */
  restoredTo?: string;
}

/** One point of the quality trajectory. */
export interface TrajectoryPoint {
  n: number;
  quality: number;
  verified: boolean;
  /** The iteration's post-run checkpoint label. */
  checkpoint?: string;
  /** A critical regression was detected at this iteration. */
  regression?: boolean;
}

/** A change of reinforcement level and why. */
export interface LevelChange {
  iteration: number;
  from: ReinforcementLevel;
  to: ReinforcementLevel;
  reason: string;
}

/** The anti-laziness part of the loop's state (`LoopState.persistence`). Small: lists are capped. */
export interface AntiLazinessState {
  /** Level of the next prompt, and why. */
  level: ReinforcementLevel;
  levelReason: string;
  /** Forced AGGRESSIVE until this iteration (inclusive), e.g. after a human rejected a regression. */
  forceAggressiveUntil?: number;
  levelHistory: LevelChange[];
  /** Metrics of the first measurement (tests, coverage), the baseline regressions are measured against. */
  baseline: { tests?: number; coverage?: { covered: number; total: number; pct: number }; iteration?: number };
  /** Latest measurement of the same metrics. */
  current: { tests?: number; coverage?: { covered: number; total: number; pct: number }; iteration?: number };
  /** Every detection type seen, counted. */
  counts: Record<string, number>;
  /** The same detections counted by severity (`warning`, `critical`); absent in states recorded before it. */
  severities?: Record<string, number>;
  /** The last 20 non-PASS events (the full log is events.json). */
  recent: InterventionEvent[];
  regressions: RegressionRecord[];
  recovery: { attempts: number; retries: number; inProgress: boolean; history: RecoveryAttempt[] };
  /** Last 8 fingerprints. */
  fingerprints: IterationFingerprint[];
  trajectory: TrajectoryPoint[];
  best?: BestOutput;
  profile: AgentProfile;
  /** Label of the newest checkpoint without a critical regression. */
  lastGoodCheckpoint?: string;
  /** The circuit breaker tripped (too many no-files iterations): AGGRESSIVE and a human gate. */
  circuitOpen?: boolean;
  /** PDARE's adapted instructions for the next prompt (cleared once used). */
  adapt?: string;
  /** Test gate name → the file listing the test ids of its last run (the runner-side inventory baseline). */
  testIds?: Record<string, string>;
  /** What the last iteration's detections said, for the next prompt's reinforcement section. */
  lastFindings?: string[];
}

/**
 * The anti-laziness layer's settings after defaults: what the rules of core read. `src/config/persistence-config.ts`
 * holds the zod schema that produces it, and checks both ways that the two stay the same shape.
 */
export interface AntiLazinessSettings {
  /** Off: no snapshots, checkpoints or detectors. */
  enabled: boolean;
  detectors: {
    noFiles: boolean;
    evidence: boolean;
    falseCompletion: boolean;
    testInventory: boolean;
    coverage: boolean;
    featureRemoval: boolean;
    validationBypass: boolean;
    stuck: boolean;
    plateau: boolean;
  };
  /** `differentErrors` (0: off) is missing from inputs resolved before the rule existed: read it with `?? 0`. */
  stuck: { sameError: number; sameOutput: number; noProgress: number; oscillation: boolean; differentErrors: number };
  plateau: { minDelta: number; window: number };
  circuitBreaker: { noFiles: number; window: number };
  reinforcement: { standardFrom: number; aggressiveFrom: number };
  recovery: { maxRetries: number; escalateOnCritical: boolean };
  coverage: { tolerance: number };
  bestOutput: {
    enabled: boolean;
    threshold: number;
    restore: 'worktree' | 'branch' | 'off';
    requireVerification: boolean;
  };
  hooks: { policy: 'warn' | 'deny'; enabled: boolean };
  checkpoints: { keepFinishedDays: number };
}
