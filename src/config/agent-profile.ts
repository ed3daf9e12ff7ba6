/**
 * The front matter of an agent profile file (`.ralph/agents/<name>.md`): the domain it serves, its keywords, and how
 * its agent runs. The body of the file is the specialist's instructions.
 */
import { z } from 'zod';
import { AgentAdapters } from './loop-input';

/** The front matter of an agent profile file. */
export const ProfileFrontMatter = z
  .object({
    /** The domain the profile serves: a built-in one (security, sre, frontend, backend, data, devops, docs, testing, finops) or its own. */
    domain: z
      .string()
      .regex(/^[a-z_]+$/, 'must be lower-case letters and underscores, e.g. security or dns')
      .max(64),
    /** What the specialist does, for people reading the profile. */
    description: z.string().max(500).optional(),
    /** Words and phrases that point to this profile (weight 2 unless `weights` says otherwise). */
    keywords: z.array(z.string().trim().min(1).max(100)).max(500).default([]),
    /** Weight per keyword (default 2); a profile's keywords win over the built-in vocabulary. */
    weights: z.record(z.string().trim().min(1).max(100), z.number().min(0).max(10)).default({}),
    /** The agent adapter to run (default: the loop's). */
    adapter: z.enum(AgentAdapters, { error: `must be one of ${AgentAdapters.join(', ')}` }).optional(),
    /** Adapter options, as in the loop's `agent` (binary, args, env, command, script). */
    options: z
      .object({
        /** Executable to run instead of the adapter's default. */
        binary: z.string().min(1).optional(),
        /** Extra arguments appended to the adapter's argv. */
        args: z.array(z.string()).optional(),
        /** Extra environment variables for the agent process. */
        env: z.record(z.string(), z.string()).optional(),
        /** `command` adapter: argv template. */
        command: z.array(z.string()).min(1).optional(),
        /** `scripted` adapter: path of the JSON script. */
        script: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    /** Model name passed to the agent CLI (default: the loop's). */
    model: z.string().min(1).optional(),
    /**
     * Budget of the specialist in one loop: iterations, tokens (input + output, as the agent reports them) and cost
     * in USD. Reaching any of them hands back to the base agent, with the reason in the routing log.
     */
    budget: z
      .object({
        /** Iterations the specialist may run in the loop. */
        iterations: z.number().int().positive().optional(),
        /** Tokens (input + output, as the agent reports them) the specialist may use in the loop. */
        tokens: z.number().int().positive().optional(),
        /** Spend in US dollars the specialist may use in the loop. */
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
