/**
 * `ralph flag <loopId> --reason "..." [--by] [--state-dir] [--json]`: marks an accepted loop's work as bad after all
 * (a test it should have failed, a cheat found in review). `ralph stats` counts flagged loops as false negatives. The
 * flag is a line of the loop's `flags.jsonl` in its state folder (a finished workflow takes no signal).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import path from 'node:path';
import { appendFlag, readFlags } from '../../state/flags';
import type { LoopFlag } from '../../core/stats';
import { describeWorkflow, getLoopStatus } from '../../client';
import { locateLoop } from '../loop-folder';
import { CommandFailedError } from '../errors';
import { type CommandContext, runCommand } from '../run-command';
import { defaultBy } from '../signal-helpers';

/** Options of `ralph flag`. */
export const FlagOptions = z.object({
  reason: z
    .string({ error: '--reason is required: say what was wrong with the accepted work' })
    .trim()
    .min(1, '--reason is required: say what was wrong with the accepted work'),
  by: z.string().min(1).optional(),
  stateDir: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

/** Refuses, with why, a loop that does not exist, still runs, or ended other than accepted. */
async function mustBeAccepted(ctx: CommandContext, loopId: string): Promise<void> {
  const client = await ctx.client();
  let w: { type: string; status: string };
  try {
    w = await describeWorkflow(client, loopId);
  } catch (e) {
    throw new CommandFailedError(`can't flag loop ${loopId}: ${(e as Error).message}`);
  }
  if (w.status === 'RUNNING')
    throw new CommandFailedError(
      `loop ${loopId} is still running: flag it once it is accepted (to stop it now: \`ralph abort ${loopId}\`)`,
    );
  const result = w.status === 'COMPLETED' ? (await getLoopStatus(client, loopId)).result : undefined;
  const ended = result?.status ?? w.status.toLowerCase().replace(/_/g, ' ');
  if (ended !== 'accepted')
    throw new CommandFailedError(
      `loop ${loopId} ended ${ended}, not accepted: only accepted work can be a false negative`,
    );
}

/** Registers `ralph flag`. */
export function flagCommand(program: Command): Command {
  return program
    .command('flag <loopId>')
    .description('flag an accepted loop whose work was bad after all (a false negative in `ralph stats`)')
    .option('--reason <text>', 'what was wrong with the accepted work (required)')
    .option('--by <name>', 'who flags it (default: $USER)')
    .option('--state-dir <dir>', "the loops' state dir (default: the loop's own); the loop is not checked then")
    .option('--json', 'print the flag as JSON')
    .action(
      runCommand(FlagOptions, async (o, [loopId], ctx) => {
        if (!o.stateDir) await mustBeAccepted(ctx, loopId);
        const where = await locateLoop(ctx, loopId, o.stateDir);
        const stateDir = path.dirname(path.dirname(where.dir));
        const flag: LoopFlag = { loopId, reason: o.reason, by: o.by ?? defaultBy(), at: new Date().toISOString() };
        const file = await appendFlag(stateDir, flag);
        const count = readFlags(stateDir, loopId)?.length ?? 1;
        if (o.json) return ctx.out.json({ ...flag, file, flags: count });
        ctx.out.line(
          `flagged loop ${loopId} (${count} flag${count === 1 ? '' : 's'}; ${file}): ` +
            '`ralph stats` counts it as a false negative',
        );
      }),
    );
}
