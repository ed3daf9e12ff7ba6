import type { Command } from 'commander';
import { z } from 'zod';
import { getProjectTasks } from '../../client';
import { PROJECT_ENV, PROJECT_ID_HELP, ProjectOption, resolveProject } from '../input/project';
import { runCommand } from '../run-command';
import { blockedLines, blockedTasks } from '../views/blocked';

/** Options of `ralph blocked`. */
export const BlockedOptions = ProjectOption.extend({
  suggest: z.boolean().default(false),
  json: z.boolean().default(false),
});
/** Options of `ralph blocked`. */
export type BlockedOptions = z.infer<typeof BlockedOptions>;

/** Registers `ralph blocked` on the program. */
export function blockedCommand(program: Command): Command {
  return program
    .command('blocked [projectId]')
    .description("list a project's blocked tasks: why, attempts, timeouts tried; --suggest says what to run")
    .option('--project <id>', `${PROJECT_ID_HELP}`)
    .option('--suggest', 'add the suggested strategy, why, and the exact command to run')
    .option('--json', 'print {projectId, status, blocked: [...]} as JSON')
    .action(
      runCommand(BlockedOptions, async (o, args, ctx) => {
        const { projectId } = resolveProject(args, {
          project: o.project,
          env: process.env[PROJECT_ENV],
          takesTasks: false,
          usage: 'ralph blocked <projectId>',
        });
        const state = await getProjectTasks(await ctx.client(), projectId);
        const opts = { suggest: o.suggest, connectionFlags: ctx.connectionFlags };
        if (o.json) ctx.out.json({ projectId, status: state.status, blocked: blockedTasks(state, opts) });
        else for (const l of blockedLines(state, opts)) ctx.out.line(l);
      }),
    );
}
