/**
 * Schemas of automatic agent routing: the routing settings of a loop or project and the per-loop session file (an
 * agent profile's front matter is in ./agent-profile). The rules themselves live in core/routing.
 */
import { z } from 'zod';
import { ROUTING_DEFAULTS } from '../core/routing/classifier';
import { AGENT_NAME_RE } from '../core/routing/handoff';

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
    /** Off: the base agent runs every iteration. */
    enabled: z.boolean().default(true),
    /** The profiles folder (relative paths are relative to the workspace). */
    profilesDir: z.string().min(1).default(DEFAULT_PROFILES_DIR),
    /** A specialist runs only above this classifier confidence (0-1). */
    minConfidence: share.default(ROUTING_DEFAULTS.minConfidence),
    /** A specialist runs only above this task complexity (1-10) too. */
    minComplexity: z.number().int().min(0).max(10).default(ROUTING_DEFAULTS.minComplexity),
    /** A running loop switches domain only when the new domain's confidence is this much above the current one's. */
    switchMargin: share.default(ROUTING_DEFAULTS.switchMargin),
    /** Handoffs in one chain before it stops with `MaxHandoffsExceeded`. */
    maxHandoffs: z.number().int().min(0).max(50).default(ROUTING_DEFAULTS.maxHandoffs),
    /** Repeats of a handoff cycle (A→B→A→B...) that stop the chain. */
    cycleRepeats: z.number().int().min(2).max(10).default(ROUTING_DEFAULTS.cycleRepeats),
    /** Longest context one handoff may pass on. */
    maxHandoffContextChars: z.number().int().min(100).max(100_000).default(ROUTING_DEFAULTS.maxHandoffContextChars),
    /** Longest summary of previous agents' context in a prompt. */
    maxSharedContextChars: z.number().int().min(200).max(100_000).default(ROUTING_DEFAULTS.maxSharedContextChars),
    /** Longest specialist instructions read from a profile. */
    maxInstructionsChars: z.number().int().min(100).max(200_000).default(ROUTING_DEFAULTS.maxInstructionsChars),
    /** Secrets in a handoff's context: redacted, or the handoff refused. */
    secrets: z.enum(['redact', 'refuse']).default(ROUTING_DEFAULTS.secrets),
    /** Failed loads or runs of routed agents within `breakerWindowSeconds` that open the circuit breaker. */
    breakerFailures: z.number().int().positive().max(100).default(ROUTING_DEFAULTS.breakerFailures),
    /** The circuit breaker's window. */
    breakerWindowSeconds: z.number().int().positive().default(ROUTING_DEFAULTS.breakerWindowSeconds),
    /** How long an open breaker runs the base agent before it closes (a durable timer). */
    breakerCooldownSeconds: z.number().int().positive().default(ROUTING_DEFAULTS.breakerCooldownSeconds),
  })
  .strict();
/** Routing settings, after defaults. */
export type RoutingConfig = z.infer<typeof RoutingConfig>;

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

/** What a project passes to a task's loop: the agent, domain and context the previous task ended with. */
export const RoutingCarryIn = z
  .object({
    /** The agent the previous task ended with. */
    agent: agentName.optional(),
    /** Its domain. */
    domain: z.string().max(64).optional(),
    /** Its last confidence. */
    confidence: share.optional(),
    /** The shared context it passes on. */
    context: z.array(ContextEntry).max(10).optional(),
    /** The previous task's id. */
    taskId: z.string().max(200).optional(),
  })
  .strict();

/** Routing settings of a loop: {@link RoutingConfig} plus what a parent project passes in. */
export const LoopRoutingConfig = RoutingConfig.extend({ carryIn: RoutingCarryIn.optional() });
/** Routing settings of a loop, after defaults. */
export type LoopRoutingConfig = z.infer<typeof LoopRoutingConfig>;
