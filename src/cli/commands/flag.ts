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
import { locateLoop } from '../loop-folder';
import { CommandFailedError } from '../errors';
import { runCommand } from '../run-command';
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
        const where = await locateLoop(ctx, loopId, o.stateDir);
        if (!o.stateDir) {
          if (!where.state)
            throw new CommandFailedError(
              `can't flag loop ${loopId}: ${where.unreachable ?? 'its state is not available'} (give --state-dir to flag it offline)`,
            );
          const status = where.state.result?.status ?? where.state.status;
          if (status !== 'accepted')
            throw new CommandFailedError(
              where.state.result
                ? `loop ${loopId} ended ${status}, not accepted: only accepted work can be a false negative`
                : `loop ${loopId} is still ${status}: flag it once it is accepted (to stop it now: \`ralph abort ${loopId}\`)`,
            );
        }
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
