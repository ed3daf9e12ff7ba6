/**
 * Input of the `ralphProject` workflow: a PRD file (prd.json or a Markdown checklist) worked task by task, each task
 * by child `ralphLoop`s whose agent timeout adapts to the task's complexity and to its earlier timeouts.
 */
import { z } from 'zod';
import { AgentSpec, CompletionCriteria, formatIssues } from './loop-input';
import { InvalidInputError } from './errors';
import { withAntiLazinessAlias } from './aliases';
import { GatesConfig } from './gates-config';
import { AntiLazinessConfig } from './anti-laziness-config';
import { TimeoutsConfig } from './timeouts-config';
import { RoutingConfig } from './routing';

export const ProjectInput = z
  .object({
    /** The PRD: `prd.json` (userStories) or a Markdown checklist; relative paths are relative to the workspace. */
    prdFile: z.string().min(1, 'must name the PRD file (prd.json or a Markdown checklist)'),
    /** Absolute path of the directory the agents work in. */
    workspace: z.string().min(1, 'must be the absolute path of the directory the agent works in'),
    agent: AgentSpec,
    /** How a task's work is verified: a command that must exit 0, and/or a promise. */
    completion: CompletionCriteria,
    /** Quality gates of every task's loops (as in ralph.config.yaml). */
    gates: GatesConfig.optional(),
    /** The anti-laziness layer of every task's loops (deprecated name of `antiLaziness`). */
    persistence: AntiLazinessConfig.optional(),
    /** The anti-laziness layer under its current name (read as `persistence`, its deprecated old name). */
    antiLaziness: AntiLazinessConfig.optional(),
    /** Complexity classes, adaptive timeouts, attempts per task. */
    timeouts: TimeoutsConfig.optional(),
    /** Unblock a blocked task automatically (up to `timeouts.maxAutoUnblockAttempts` times); manual by default. */
    autoUnblock: z.boolean().default(false),
    /** Text put before every task's own description in its prompt. */
    preamble: z.string().optional(),
    /** Iterations of one attempt (one child loop) at a task. */
    iterationsPerAttempt: z.number().int().positive().default(1),
    /** Heartbeat timeout of the project's and its loops' activities: how soon a dead worker is noticed. */
    heartbeatTimeoutSeconds: z.number().int().positive().default(60),
    /** Continue-as-new after this many attempts in one run. */
    continueAsNewEvery: z.number().int().positive().default(100),
    /** Where project and loop state live; default `<workspace>/.ralph`. */
    stateDir: z.string().min(1).optional(),
    /** Free-form labels, shown by `ralph status`. */
    labels: z.record(z.string(), z.string()).default({}),
    /** Automatic agent routing (see the loop's `routing`): every task's loop routes, starting from the last agent. */
    routing: RoutingConfig.optional(),
  })
  .strict();
/** A project's input, after defaults. */
export type ProjectInput = z.infer<typeof ProjectInput>;
/** A project's input as written. */
export type ProjectInputRaw = z.input<typeof ProjectInput>;

/** The one parse of a project input (the CLI, the client and the worker's validation): defaults applied, problems named. */
export function parseProjectInput(raw: unknown, describe: (e: z.ZodError) => string = formatIssues): ProjectInput {
  const r = ProjectInput.safeParse(withAntiLazinessAlias(raw).value);
  if (!r.success) throw new InvalidInputError(`invalid project input: ${describe(r.error)}`);
  return r.data;
}

/** A project input as the worker's validation returns it and the workflow runs it: the timeouts always set. */
export type ResolvedProjectInput = Omit<ProjectInput, 'timeouts'> & { timeouts: NonNullable<ProjectInput['timeouts']> };
