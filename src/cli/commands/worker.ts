/**
 * `ralph worker [--max-concurrent-activities n] [--host id]`: runs a worker for the ralph workflows and activities against the
 * configured server (flags > env > defaults), registering the loop's search attributes when the server allows it.
 * Ctrl-C (SIGINT/SIGTERM) cancels running agents, waits for the worker to stop, and exits.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { hostIdProblem } from '../../core/hosts';
import { runWorker } from '../../workers/main';
import { installWorkerRuntime, intOption, runCommand } from '../run-command';

/** Options of `ralph worker`. */
export const WorkerCommandOptions = z.object({
  maxConcurrentActivities: intOption().positive().max(10_000).optional(),
  host: z
    .string()
    .optional()
    .refine((h) => h === undefined || !hostIdProblem(h), {
      message: 'must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit',
    }),
});

/** Registers `ralph worker` on the program. */
export function workerCommand(program: Command): Command {
  return program
    .command('worker')
    .description('run a worker that executes loops (agents and checks run on this machine)')
    .option('--max-concurrent-activities <n>', 'agent runs and checks executed at once (default 20)')
    .option(
      '--host <id>',
      "this host's id (env RALPH_HOST_ID): also serve the workspace activities of loops bound to it, on queue <task-queue>@<id>",
    )
    .action(
      runCommand(WorkerCommandOptions, async (o, _args, ctx) => {
        installWorkerRuntime('INFO');
        await runWorker({
          connection: ctx.connection,
          maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities,
          hostId: o.host ?? (process.env.RALPH_HOST_ID || undefined),
          log: (m) => ctx.out.note(`ralph worker: ${m}`),
        });
        ctx.out.note('ralph worker: stopped');
      }),
    );
}
