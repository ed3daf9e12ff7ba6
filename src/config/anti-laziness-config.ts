/**
 * Configuration of the anti-laziness layer: which detectors run, their thresholds, reinforcement, PDARE recovery,
 * best-output selection and the tool-call hooks. Every field has the default of the design documents, so `{}` (or
 * leaving `persistence` out of the loop input) gives the standard behaviour.
 */
import { z } from 'zod';
import type { AntiLazinessSettings } from '../core/anti-laziness-types';

const count = (d: number) => z.number().int().positive().default(d);

export const DetectorToggles = z
  .object({
    /** `no_files_written`: the agent exited 0 or claimed done and changed no file. */
    noFiles: z.boolean().default(true),
    /** `hallucinated_files`: files the agent claims don't exist or aren't in the diff. */
    evidence: z.boolean().default(true),
    /** `false_completion`: done claimed, nothing verified it, no file changed. */
    falseCompletion: z.boolean().default(true),
    /** `test_deletion` / `test_replaced`: tests that vanished or were swapped. */
    testInventory: z.boolean().default(true),
    /** `coverage_regression`: coverage below the loop's baseline. */
    coverage: z.boolean().default(true),
    /** `feature_removal`: exported symbols removed from files the task doesn't name. */
    featureRemoval: z.boolean().default(true),
    /** Validation bypass: `.skip`, `|| true`, `@ts-ignore`, lowered thresholds, weakened assertions... */
    validationBypass: z.boolean().default(true),
    /** `stuck_loop`: the same error, output or no progress again and again, or oscillation. */
    stuck: z.boolean().default(true),
    /** `quality_plateau`: quality deltas too small over a window. */
    plateau: z.boolean().default(true),
  })
  .strict();

export const AntiLazinessConfig = z
  .object({
    /** Off: no snapshots, checkpoints or detectors (the loop of issue 2/3 only). */
    enabled: z.boolean().default(true),
    /** Which detectors run (each on by default). */
    detectors: DetectorToggles.default(DetectorToggles.parse({})),
    stuck: z
      .object({
        /** The same normalised error this many iterations in a row is a stuck loop. */
        sameError: count(3),
        /** The same non-empty diff or the same answer this many times in a row. */
        sameOutput: count(3),
        /** Iterations in a row that change no file (and don't complete). */
        noProgress: count(3),
        /** Detect A-B-A-B oscillation between two workspace states. */
        oscillation: z.boolean().default(true),
        /** Failing iterations in a row, with different errors and no quality progress (0: off). */
        differentErrors: z.number().int().min(0).default(3),
      })
      .strict()
      .default({ sameError: 3, sameOutput: 3, noProgress: 3, oscillation: true, differentErrors: 3 }),
    plateau: z
      .object({
        /** Quality deltas (points of 0-100) all below this... */
        minDelta: z.number().positive().default(5),
        /** ...over this many consecutive deltas is a plateau. */
        window: count(3),
      })
      .strict()
      .default({ minDelta: 5, window: 3 }),
    circuitBreaker: z
      .object({
        /** No-files iterations... */
        noFiles: count(3),
        /** ...within this many iterations trip the breaker: AGGRESSIVE reinforcement and a human gate. */
        window: count(5),
      })
      .strict()
      .default({ noFiles: 3, window: 5 }),
    reinforcement: z
      .object({
        /** Iteration from which prompts get STANDARD reinforcement. */
        standardFrom: count(3),
        /** Iteration from which prompts get AGGRESSIVE reinforcement. */
        aggressiveFrom: count(5),
      })
      .strict()
      .default({ standardFrom: 3, aggressiveFrom: 5 }),
    recovery: z
      .object({
        /** PDARE retries with an adapted prompt before a human is asked. */
        maxRetries: z.number().int().min(0).default(3),
        /** Critical findings (test deletion, validation bypass, stuck loop) go to a human at once. */
        escalateOnCritical: z.boolean().default(true),
      })
      .strict()
      .default({ maxRetries: 3, escalateOnCritical: true }),
    coverage: z
      .object({
        /** Percentage points coverage may drop before it is a regression (uncovered lines must also grow). */
        tolerance: z.number().min(0).default(0.5),
      })
      .strict()
      .default({ tolerance: 0.5 }),
    bestOutput: z
      .object({
        /** Off: the final state is kept as it is. */
        enabled: z.boolean().default(true),
        /** Only iterations at or above this quality (0-100) are candidates. */
        threshold: z.number().min(0).max(100).default(70),
        /** Where a best iteration that is not the final one goes. */
        restore: z.enum(['worktree', 'branch', 'off']).default('worktree'),
        /** Only verified iterations (check/gates passed) are candidates. */
        requireVerification: z.boolean().default(false),
      })
      .strict()
      .default({ enabled: true, threshold: 70, restore: 'worktree', requireVerification: false }),
    hooks: z
      .object({
        /** What a risky tool call gets: a warning, or a deny for critical ones. */
        policy: z.enum(['warn', 'deny']).default('warn'),
        /** Install `ralph hook` for agents that support hooks (claude-code, codex, gemini with a worker running as root, scripted). */
        enabled: z.boolean().default(true),
      })
      .strict()
      .default({ policy: 'warn', enabled: true }),
    checkpoints: z
      .object({
        /**
         * Days a finished loop keeps all its checkpoints (git refs, plain-folder manifests and stored content); then
         * all but `best` and `final` are pruned (at the end of a later loop in the same state folder, or by
         * `ralph checkpoints prune`). 0 prunes at the loop's own end.
         */
        keepFinishedDays: z.number().min(0).default(7),
      })
      .strict()
      .default({ keepFinishedDays: 7 }),
  })
  .strict();

export type AntiLazinessConfig = z.infer<typeof AntiLazinessConfig>;
export type AntiLazinessConfigRaw = z.input<typeof AntiLazinessConfig>;

/** The defaults, as a value. */
export const defaultAntiLazinessConfig = (): AntiLazinessConfig => AntiLazinessConfig.parse({});

// The schema and core's settings type stay the same shape (core imports nothing from config).
({}) as AntiLazinessConfig satisfies AntiLazinessSettings;
({}) as AntiLazinessSettings satisfies AntiLazinessConfig;
