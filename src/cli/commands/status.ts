import type { Command } from 'commander';
import { z } from 'zod';
import { describeWorkflow, getLoopStatus, getProjectTasks, projectChildGates, workflowFailure } from '../../client';
import { WorkflowTypes } from '../../core/constants';
import { runCommand, UsageError, useColor } from '../run-command';
import { loopFlags } from '../../state/flags';
import { antiLazinessViews, flagLines, projectStatusLines, statusLines } from '../views/loop';

/** Options of `ralph status`. */
export const StatusOptions = z.object({
  json: z.boolean().default(false),
  persistence: z.boolean().default(false),
  antiLaziness: z.boolean().default(false),
  regressions: z.boolean().default(false),
  quality: z.boolean().default(false),
  /** Colours (ANSI) in the gate's diff and failure: on for a terminal unless NO_COLOR is set; --color/--no-color force. */
  color: z.boolean().optional(),
});

/** Options of `ralph status`. */
export type StatusOptions = z.infer<typeof StatusOptions>;

/** Registers `ralph status` on the program. */
export function statusCommand(program: Command): Command {
  return program
    .command('status <id>')
    .description("show a loop's state: gate, totals, last iterations and signals, result; or a project's task table")
    .option(
      '--json',
      "print the full LoopState (with its `ralph flag`s as flags; a project: ProjectState, with its child loops' " +
        "pending gates as childGates) as JSON (with a view flag: that view's data)",
    )
    .option('--anti-laziness', 'show the anti-laziness metrics: baseline/current, regressions, level, recovery, best')
    .option('--persistence', 'the same as --anti-laziness (its old name)')
    .option('--regressions', 'show the regression events with their recovery and rollback')
    .option('--quality', 'show the quality trajectory as bars, with the best iteration')
    .option(
      '--color',
      "colour a gate's diff and failure excerpt (default: when stdout is a terminal and NO_COLOR is unset)",
    )
    .option('--no-color', 'never colour the output')
    .action(
      runCommand(StatusOptions, async (flags, [loopId], ctx) => {
        const o = { ...flags, persistence: flags.persistence || flags.antiLaziness };
        const client = await ctx.client();
        const kind = await describeWorkflow(client, loopId);
        if (kind.type === WorkflowTypes.ralphProject) {
          if (o.persistence || o.regressions || o.quality)
            throw new UsageError(
              `--anti-laziness, --regressions and --quality show a loop: "${loopId}" is a project; ` +
                `its attempts are loops (ids in \`ralph status ${loopId} --json\`, tasks[].attempts[].loopId)`,
            );
          const project = await getProjectTasks(client, loopId);
          // A running child loop's human gate (a question, say) pauses the project: shown with the project.
          const childGates = await projectChildGates(client, project);
          if (o.json) ctx.out.json({ ...project, childGates });
          else
            for (const l of projectStatusLines(project, kind.status, childGates, ctx.connectionFlags)) ctx.out.line(l);
          return;
        }
        const state = await getLoopStatus(client, loopId);
        const views = antiLazinessViews(state, o);
        if (views) {
          if (o.json) ctx.out.json(views.json);
          else for (const l of views.lines) ctx.out.line(l);
          return;
        }
        const d = await describeWorkflow(client, loopId);
        // `ralph flag`s of the loop, from its state folder (absent when that folder is not on this machine).
        const loopFlagged = loopFlags(state);
        if (o.json) {
          ctx.out.json(loopFlagged ? { ...state, flags: loopFlagged } : state);
          return;
        }
        const failure = d.status !== 'RUNNING' && !state.result ? await workflowFailure(client, loopId) : undefined;
        const color = useColor(o.color, process.stdout);
        for (const l of statusLines(state, ctx.connectionFlags, d.status, failure, color)) ctx.out.line(l);
        for (const l of flagLines(loopFlagged)) ctx.out.line(l);
      }),
    );
}
