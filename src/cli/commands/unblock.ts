import type { Command } from 'commander';
import { z } from 'zod';
import { unblockTasks } from '../../client';
import { COMPLEXITIES } from '../../core/complexity';
import { answerWithin, PROJECT_ENV, PROJECT_ID_HELP, ProjectOption, resolveProject } from '../input/project';
import { intOption, runCommand, UsageError } from '../run-command';
import { defaultBy, shellQuote } from '../signal-helpers';

/** Options of `ralph unblock`. */
export const UnblockOptions = ProjectOption.extend({
  filter: z.enum(COMPLEXITIES, { error: `must be one of ${COMPLEXITIES.join(', ')}` }).optional(),
  timeout: intOption().positive().optional(),
  timeoutMultiplier: z.coerce.number().positive().optional(),
  maxAttempts: intOption().positive().optional(),
  reason: z.string().min(1).optional(),
  by: z.string().min(1).optional(),
  json: z.boolean().default(false),
});
/** Options of `ralph unblock`. */
export type UnblockOptions = z.infer<typeof UnblockOptions>;

/** Registers `ralph unblock` on the program. */
export function unblockCommand(program: Command): Command {
  return program
    .command('unblock [projectId] [taskIds...]')
    .summary("unblock a project's blocked tasks (named, or --filter), optionally with a new timeout")
    .usage('<projectId> [task-id...] [options]  (or: --project <id> [task-id...])')
    .description(
      'unblock blocked tasks of a project (named, or every one of a complexity with --filter) so they run again, ' +
        `optionally with a new timeout; ${PROJECT_ID_HELP} (with --project or $${PROJECT_ENV}, every argument is a task id)`,
    )
    .option('--project <id>', `the project (default $${PROJECT_ENV}; else the first argument)`)
    .option('--filter <complexity>', `every blocked task of this complexity: ${COMPLEXITIES.join(' | ')}`)
    .option('--timeout <secs>', "timeout of the tasks' next attempts, taken as typed (backoff starts over)")
    .option('--timeout-multiplier <x>', 'extra factor on the adaptive timeout of the next attempts')
    .option('--max-attempts <n>', 'attempts granted before the task blocks again (default: maxAttemptsPerTask)')
    .option('--reason <text>', 'why (kept in the task history)')
    .option('--by <name>', 'who unblocks (default: $USER)')
    .option('--json', 'print {projectId, tasks, note} as JSON')
    .addHelpText(
      'after',
      `\nExamples:\n  ralph unblock ralph-project-app-prd-1a2b3c T3 --timeout 1800\n` +
        `  ralph unblock ralph-project-app-prd-1a2b3c --filter ui_heavy --timeout-multiplier 3\n` +
        `  ${PROJECT_ENV}=ralph-project-app-prd-1a2b3c ralph unblock T3 T4 --max-attempts 1\n` +
        `See the blocked tasks and suggested commands with \`ralph blocked <projectId> --suggest\`.`,
    )
    .action(
      runCommand(UnblockOptions, async (o, args, ctx) => {
        const { projectId, rest: taskIds } = resolveProject(args, {
          project: o.project,
          env: process.env[PROJECT_ENV],
          takesTasks: true,
          usage: 'ralph unblock <projectId> <task-id...>',
        });
        if (!taskIds.length && !o.filter)
          throw new UsageError(
            `name the tasks to unblock (\`ralph unblock ${shellQuote(projectId)} <task-id...>\`) or --filter <complexity>; ` +
              `see them with \`ralph blocked ${shellQuote(projectId)}\``,
          );
        if (taskIds.length && o.filter) throw new UsageError('name task ids or --filter <complexity>, not both');
        const by = o.by ?? defaultBy();
        const client = await ctx.client();
        const out = await answerWithin(
          unblockTasks(client, projectId, {
            taskIds: taskIds.length ? taskIds : undefined,
            filter: o.filter,
            timeoutSeconds: o.timeout,
            timeoutMultiplier: o.timeoutMultiplier,
            maxAttempts: o.maxAttempts,
            reason: o.reason,
            by,
          }),
          { projectId, command: 'unblock', taskQueue: ctx.connection.taskQueue },
        );
        if (o.json) ctx.out.json({ projectId, ...out });
        else
          ctx.out.line(
            `${out.note} in project ${projectId} as ${by}: follow with \`ralph status ${shellQuote(projectId)}\``,
          );
      }),
    );
}
