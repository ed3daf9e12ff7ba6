/**
 * Schemas of automatic agent routing: the routing settings of a loop or project, an agent profile's front matter
 * (`.ralph/agents/<name>.md`), and the per-loop session file. The rules themselves live in core/routing.
 */
import { z } from 'zod';
import { ROUTING_DEFAULTS } from '../core/routing/classifier';
import { AGENT_NAME_RE } from '../core/routing/handoff';
import { AgentAdapters } from './loop-input';

/** Where profiles live by default, relative to the workspace. */
export const DEFAULT_PROFILES_DIR = '.ralph/agents';

const share = z.number().min(0).max(1);
const agentName = z
  .string()
  .regex(AGENT_NAME_RE, 'must be lower-case letters and underscores (^[a-z_]+$), e.g. security_specialist')
  .max(64);

/**
 * Routing settings. Routing is active when `enabled` and the profiles folder holds at least one valid profile;
 * otherwise the base agent runs every iteration with no routing overhead.
 */
export const RoutingConfig = z
  .object({
    enabled: z.boolean().default(true),
    /** The profiles folder (relative paths are relative to the workspace). */
    profilesDir: z.string().min(1).default(DEFAULT_PROFILES_DIR),
    minConfidence: share.default(ROUTING_DEFAULTS.minConfidence),
    minComplexity: z.number().int().min(0).max(10).default(ROUTING_DEFAULTS.minComplexity),
    switchMargin: share.default(ROUTING_DEFAULTS.switchMargin),
    maxHandoffs: z.number().int().min(0).max(50).default(ROUTING_DEFAULTS.maxHandoffs),
    cycleRepeats: z.number().int().min(2).max(10).default(ROUTING_DEFAULTS.cycleRepeats),
    maxHandoffContextChars: z.number().int().min(100).max(100_000).default(ROUTING_DEFAULTS.maxHandoffContextChars),
    maxSharedContextChars: z.number().int().min(200).max(100_000).default(ROUTING_DEFAULTS.maxSharedContextChars),
    maxInstructionsChars: z.number().int().min(100).max(200_000).default(ROUTING_DEFAULTS.maxInstructionsChars),
    secrets: z.enum(['redact', 'refuse']).default(ROUTING_DEFAULTS.secrets),
    breakerFailures: z.number().int().positive().max(100).default(ROUTING_DEFAULTS.breakerFailures),
    breakerWindowSeconds: z.number().int().positive().default(ROUTING_DEFAULTS.breakerWindowSeconds),
    breakerCooldownSeconds: z.number().int().positive().default(ROUTING_DEFAULTS.breakerCooldownSeconds),
  })
  .strict();
/** Routing settings, after defaults. */
export type RoutingConfig = z.infer<typeof RoutingConfig>;

/** The front matter of an agent profile file. */
export const ProfileFrontMatter = z
  .object({
    /** The domain the profile serves: a built-in one (security, sre, frontend, backend, data, devops, docs, testing, finops) or its own. */
    domain: z
      .string()
      .regex(/^[a-z_]+$/, 'must be lower-case letters and underscores, e.g. security or dns')
      .max(64),
    description: z.string().max(500).optional(),
    /** Words and phrases that point to this profile (weight 2 unless `weights` says otherwise). */
    keywords: z.array(z.string().trim().min(1).max(100)).max(500).default([]),
    weights: z.record(z.string().trim().min(1).max(100), z.number().min(0).max(10)).default({}),
    /** The agent adapter to run (default: the loop's). */
    adapter: z.enum(AgentAdapters, { error: `must be one of ${AgentAdapters.join(', ')}` }).optional(),
    /** Adapter options, as in the loop's `agent` (binary, args, env, command, script). */
    options: z
      .object({
        binary: z.string().min(1).optional(),
        args: z.array(z.string()).optional(),
        env: z.record(z.string(), z.string()).optional(),
        command: z.array(z.string()).min(1).optional(),
        script: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    model: z.string().min(1).optional(),
    /** Budget of the specialist: iterations it may run in a row, and spend. */
    budget: z
      .object({
        iterations: z.number().int().positive().optional(),
        costUsd: z.number().positive().optional(),
      })
      .strict()
      .optional(),
    /** Time limit of one iteration of this specialist (the larger of this and the loop's timeout applies). */
    iterationTimeoutSeconds: z.number().int().positive().optional(),
  })
  .strict();
/** The front matter of an agent profile file, after defaults. */
export type ProfileFrontMatter = z.infer<typeof ProfileFrontMatter>;

const ContextEntry = z.object({
  agent: z.string().max(64),
  iteration: z.number().int().nonnegative(),
  reason: z.string().max(1000).optional(),
  text: z.string().max(100_000),
});

/** The per-loop routing session file (`<loopDir>/routing/session.json`). */
export const RoutingSession = z
  .object({
    version: z.literal(1),
    loopId: z.string().min(1),
    /** The profile running now; absent: the base agent. */
    activeAgent: agentName.optional(),
    domain: z.string().max(64),
    lastConfidence: share,
    /** Agents of the current handoff chain, in order, and the links with reasons. */
    chain: z.object({
      agents: z.array(z.string().max(64)),
      links: z.array(
        z.object({
          from: z.string().max(64),
          to: z.string().max(64),
          reason: z.string().max(1000),
          iteration: z.number().int().nonnegative(),
        }),
      ),
      lastValidIteration: z.number().int().nonnegative().optional(),
      stopped: z
        .object({ error: z.literal('MaxHandoffsExceeded'), detail: z.string(), iteration: z.number().int() })
        .optional(),
    }),
    sharedContext: z.array(ContextEntry).max(50),
    updatedAt: z.string(),
  })
  .strict();
/** The per-loop routing session file. */
export type RoutingSession = z.infer<typeof RoutingSession>;
