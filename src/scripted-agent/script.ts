import { z } from 'zod';

/** Runs a step only on the n-th run of an iteration (re-runs after a usage limit) or the n-th Temporal attempt. */
const When = { onRun: z.number().int().positive().optional(), onAttempt: z.number().int().positive().optional() };

/** One action of the scripted agent. */
export const ScriptStep = z.union([
  z.object({ write: z.string(), content: z.string().default(''), ...When }).strict(),
  z.object({ append: z.string(), content: z.string(), ...When }).strict(),
  z.object({ delete: z.string(), ...When }).strict(),
  z.object({ mkdir: z.string(), ...When }).strict(),
  z.object({ run: z.string(), ...When }).strict(),
  z.object({ print: z.string(), ...When }).strict(),
  z.object({ stderr: z.string(), ...When }).strict(),
  z.object({ printBytes: z.number().int().nonnegative(), ...When }).strict(),
  z.object({ claimDone: z.literal(true), ...When }).strict(),
  z.object({ promise: z.string(), ...When }).strict(),
  z.object({ evidence: z.array(z.string()), ...When }).strict(),
  z
    .object({
      usage: z
        .object({
          inputTokens: z.number().optional(),
          outputTokens: z.number().optional(),
          costUsd: z.number().optional(),
        })
        .strict(),
      ...When,
    })
    .strict(),
  z.object({ sleep: z.number().int().nonnegative(), ...When }).strict(),
  z.object({ hang: z.literal(true), ...When }).strict(),
  z.object({ exit: z.number().int().min(0).max(255), ...When }).strict(),
  z
    .object({
      usageLimit: z
        .object({ resetInSeconds: z.number().nonnegative().optional(), resetAt: z.string().optional() })
        .strict(),
      ...When,
    })
    .strict(),
  /**
   * Runs ralph's hook (`$RALPH_HOOK_COMMAND <event>`) the way Claude Code does around a tool call, with the call as
   * JSON on stdin; prints `[hook] <decision>: <message>`. When the hook denies the call, the next step (the call
   * itself, e.g. a `delete`) is skipped.
   */
  z
    .object({
      hook: z.enum(['pre-tool-use', 'post-tool-use']),
      tool: z.string().min(1),
      input: z.record(z.string(), z.unknown()).default({}),
      /** PostToolUse's `tool_response` (Claude Code's `originalFile`, `type`...); `{}` when not given. */
      response: z.record(z.string(), z.unknown()).optional(),
      ...When,
    })
    .strict(),
]);
/** One action of the scripted agent. */
export type ScriptStep = z.infer<typeof ScriptStep>;

const Steps = z.array(ScriptStep);

/**
 * A scripted agent's script: steps per iteration (an array, index 0 = iteration 1, or an object keyed by iteration
 * number), and `default` steps for iterations the script doesn't list.
 */
export const AgentScript = z
  .object({
    iterations: z
      .union([z.array(Steps), z.record(z.string().regex(/^\d+$/, 'keys must be iteration numbers'), Steps)])
      .default([]),
    default: Steps.default([]),
    /**
     * Per task of a project (env `RALPH_TASK_ID`): steps per attempt at the task (`RALPH_TASK_ATTEMPT`), else the
     * task's `default`. Tasks not listed fall back to `iterations`/`default`.
     */
    tasks: z
      .record(
        z.string(),
        z
          .object({
            attempts: z.record(z.string().regex(/^\d+$/, 'keys must be attempt numbers'), Steps).default({}),
            default: Steps.default([]),
          })
          .strict(),
      )
      .default({}),
  })
  .strict();
/** A scripted agent's script. */
export type AgentScript = z.infer<typeof AgentScript>;

/** The steps for one iteration. */
export function stepsFor(script: AgentScript, iteration: number, task?: { id: string; attempt: number }): ScriptStep[] {
  const forTask = task ? script.tasks[task.id] : undefined;
  if (forTask) return forTask.attempts[String(task!.attempt)] ?? forTask.default;
  const it = script.iterations;
  const listed = Array.isArray(it) ? it[iteration - 1] : it[String(iteration)];
  return listed ?? script.default;
}
