import { z } from 'zod';
import { AntiLazinessConfig } from './anti-laziness-config';
import { VerificationConfig } from './verification-config';
import { SandboxConfig } from './sandbox-config';
import { QuestionsConfig } from './questions-config';
import { GateKinds, OutputFormats, Severities, type GateKind, type OutputFormat } from '../core/gates';
import { Profiles, type GateThresholds, type ProfileName } from '../core/gate-rules';

const Coverage = z
  .object({
    /** Minimum line coverage, percent. */
    lines: z.number().min(0).max(100),
    /** Minimum branch coverage, percent. */
    branches: z.number().min(0).max(100),
    /** Minimum function coverage, percent. */
    functions: z.number().min(0).max(100),
    /** Minimum statement coverage, percent. */
    statements: z.number().min(0).max(100),
  })
  .partial()
  .strict();

/** Threshold overrides of one gate (the profile gives the rest). */
export const GateThresholdsSchema = z
  .object({
    /** Most errors the gate may report and still pass. */
    maxErrors: z.number().int().nonnegative(),
    /** Most warnings the gate may report and still pass. */
    maxWarnings: z.number().int().nonnegative(),
    /** Least share of passing tests, percent. */
    minPassRate: z.number().min(0).max(100),
    /** Minimum coverage per metric (coverage gates). */
    coverage: Coverage,
    /** Highest vulnerability severity allowed (audit gates). */
    maxSeverity: z.enum(Severities),
  })
  .partial()
  .strict();

/**
 * Timeout of a gate that sets none, by kind, in seconds. Build 300, lint 120, test 600 and custom 60 are the design's
 * (seed 002); typecheck is a build without output (300), coverage runs the tests (600), audit asks the registry (120).
 */
export const GATE_TIMEOUTS: Record<GateKind, number> = {
  build: 300,
  typecheck: 300,
  lint: 120,
  test: 600,
  coverage: 600,
  audit: 120,
  custom: 60,
};

/** One quality gate: a command the orchestrator runs, how to read its output, and its thresholds. */
export const GateSpec = z
  .object({
    /** Unique name, shown in rejections (`typecheck`, `unit-tests`...). */
    name: z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, dot, dash or underscore'),
    /** What the gate checks: it chooses the default output format and the profile's thresholds. */
    kind: z.enum(GateKinds, { error: `must be one of ${GateKinds.join(', ')}` }),
    /** Shell command, run in `cwd` (relative to the workspace). */
    command: z.string().min(1),
    /** How to read the output; default by kind (see DEFAULT_FORMATS). */
    format: z.enum(OutputFormats, { error: `must be one of ${OutputFormats.join(', ')}` }).optional(),
    /** Read this file (relative to cwd) after the command instead of its stdout, e.g. coverage/coverage-summary.json. */
    report: z.string().min(1).optional(),
    /** Folder the command runs in, relative to the workspace. */
    cwd: z.string().default('.'),
    /** Seconds before the gate's command is killed (a timeout never passes); default by kind (GATE_TIMEOUTS). */
    timeoutSeconds: z.number().int().positive().optional(),
    /** Temporal attempts for the gate's activity (infrastructure failures; a failing gate is a verdict, not retried). */
    maxAttempts: z.number().int().positive().max(10).default(2),
    /** Off: the gate is not run. */
    enabled: z.boolean().default(true),
    /** Overrides of the profile's thresholds; after validation, the full resolved thresholds. */
    thresholds: GateThresholdsSchema.default({}),
  })
  .strict()
  .transform((g) => ({ ...g, timeoutSeconds: g.timeoutSeconds ?? GATE_TIMEOUTS[g.kind] }));
/** One quality gate. */
export type GateSpec = z.infer<typeof GateSpec>;

/** Rejection policy: how many rejected completion claims before a human decides. */
export const RejectionPolicy = z
  .object({
    /** Rejected completion claims before the `rejections` human gate opens. */
    maxRetries: z.number().int().positive().default(3),
    /** Open the `rejections` human gate after `maxRetries` rejections (else keep iterating). */
    escalateToHuman: z.boolean().default(true),
  })
  .strict();

/** Token budget of a loop. */
export const TokenBudget = z
  .object({
    /** Tokens (in and out) the loop may spend before the `budget` human gate opens. */
    maxTokens: z.number().int().positive().optional(),
    /** Cost in US dollars the loop may spend before the `budget` human gate opens. */
    maxCostUsd: z.number().positive().optional(),
    /** Warn when this share of the budget is left. */
    warnThreshold: z.number().min(0).max(1).default(0.2),
  })
  .strict();

/**
 * `ralph.config.yaml` / `.json`: the gates that decide completion, the threshold profile, the rejection policy and the
 * token budget. The one source of truth for config files, loop inputs and `ralph config schema`.
 */
export const GatesConfig = z
  .object({
    /** The threshold profile every gate starts from; a gate's own `thresholds` override it. */
    profile: z.enum(Object.keys(Profiles) as [ProfileName, ...ProfileName[]]).default('standard'),
    /** The gates, run in parallel when the agent claims done (or every iteration); names must be unique. */
    gates: z
      .array(GateSpec)
      .default([])
      .superRefine((gates, ctx) => {
        const seen = new Set<string>();
        gates.forEach((g, i) => {
          if (seen.has(g.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate gate name "${g.name}"` });
          seen.add(g.name);
        });
      }),
    /** Run the gates when the agent claims done (default), or after every iteration. */
    runOn: z.enum(['claim', 'every-iteration']).default('claim'),
    rejection: RejectionPolicy.default({ maxRetries: 3, escalateToHuman: true }),
    tokenBudget: TokenBudget.optional(),
    /** The anti-laziness layer (detectors, reinforcement, recovery, best output); used when the loop input sets none. */
    persistence: AntiLazinessConfig.optional(),
    /** The anti-laziness layer under its current name (read as `persistence`, its deprecated old name). */
    antiLaziness: AntiLazinessConfig.optional(),
    /** Verification against the original checks (protected set, on protected edits); used when the loop input sets none. */
    verification: VerificationConfig.optional(),
    /** The agent sandbox (see the loop input's `sandbox`). */
    sandbox: SandboxConfig.optional(),
    /** Questions the agent may ask per loop (see the loop input's `questions`). */
    questions: QuestionsConfig.optional(),
  })
  .strict();
/** A gates configuration, after defaults. */
export type GatesConfig = z.infer<typeof GatesConfig>;
/** A gates configuration as written. */
export type GatesConfigRaw = z.input<typeof GatesConfig>;

/** Output format used when a gate names none. */
export const DEFAULT_FORMATS: Record<GateKind, OutputFormat> = {
  build: 'exit-code',
  typecheck: 'tsc',
  lint: 'eslint-json',
  test: 'jest-json',
  coverage: 'istanbul-summary',
  audit: 'npm-audit-json',
  custom: 'exit-code',
};

/** The thresholds a gate runs with: its profile's for its kind, overridden by its own. */
export function thresholdsFor(profile: ProfileName, gate: GateSpec): GateThresholds {
  const base = Profiles[profile][gate.kind] as GateThresholds;
  const own = gate.thresholds;
  return {
    ...base,
    ...own,
    coverage:
      base.coverage || own.coverage ? ({ ...base.coverage, ...own.coverage } as GateThresholds['coverage']) : undefined,
  };
}

/** JSON Schema of the config file, for editors (`ralph config schema`). */
export function gatesConfigJsonSchema(): unknown {
  return z.toJSONSchema(GatesConfig, { io: 'input' });
}
