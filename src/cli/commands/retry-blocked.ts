/**
 * `ralph retry-blocked <projectId> [--max-attempts n] [--reason] [--by]`: gives every blocked task of a project
 * `n` (default 1) more attempts through the project's `retryBlocked` update; refused (exit 1, the project's message)
 * when no task is blocked.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { retryBlockedTasks } from '../../client';
import { answerWithin, PROJECT_ENV, PROJECT_ID_HELP, ProjectOption, resolveProject } from '../input/project';
import { intOption, runCommand } from '../run-command';
import { defaultBy, shellQuote } from '../signal-helpers';

/** Options of `ralph retry-blocked`. */
export const RetryBlockedOptions = ProjectOption.extend({
  maxAttempts: intOption().positive().optional(),
  reason: z.string().min(1).optional(),
  by: z.string().min(1).optional(),
  json: z.boolean().default(false),
});
/** Options of `ralph retry-blocked`. */
export type RetryBlockedOptions = z.infer<typeof RetryBlockedOptions>;

/** Registers `ralph retry-blocked` on the program. */
export function retryBlockedCommand(program: Command): Command {
  return program
    .command('retry-blocked [projectId]')
    .description(`give every blocked task of a project more attempts (default 1); ${PROJECT_ID_HELP}`)
    .option('--project <id>', `the project (default: the argument, else $${PROJECT_ENV})`)
    .option('--max-attempts <n>', 'attempts granted to each blocked task (default 1)')
    .option('--reason <text>', 'why (kept in the task history)')
    .option('--by <name>', 'who retries (default: $USER)')
    .option('--json', 'print {projectId, tasks, note} as JSON')
    .action(
      runCommand(RetryBlockedOptions, async (o, args, ctx) => {
        const { projectId } = resolveProject(args, {
          project: o.project,
          env: process.env[PROJECT_ENV],
          takesTasks: false,
          usage: 'ralph retry-blocked <projectId>',
        });
        const by = o.by ?? defaultBy();
        const client = await ctx.client();
        const out = await answerWithin(
          retryBlockedTasks(client, projectId, { maxAttempts: o.maxAttempts, reason: o.reason, by }),
          { projectId, command: 'retry-blocked', taskQueue: ctx.connection.taskQueue },
        );
        if (o.json) ctx.out.json({ projectId, ...out });
        else
          ctx.out.line(
            `${out.note} in project ${projectId} as ${by}, ${o.maxAttempts ?? 1} more attempt${(o.maxAttempts ?? 1) === 1 ? '' : 's'} each: ` +
              `follow with \`ralph status ${shellQuote(projectId)}\``,
          );
      }),
    );
}
