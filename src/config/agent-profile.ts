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
    /**
     * Budget of the specialist in one loop: iterations, tokens (input + output, as the agent reports them) and cost
     * in USD. Reaching any of them hands back to the base agent, with the reason in the routing log.
     */
    budget: z
      .object({
        iterations: z.number().int().positive().optional(),
        tokens: z.number().int().positive().optional(),
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
