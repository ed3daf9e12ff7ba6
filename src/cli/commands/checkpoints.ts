/**
 * `ralph checkpoints prune [--state-dir dir] [--loop id] [--older-than-days n] [--dry-run] [--json]`: deletes the
 * checkpoints of finished loops whose retention is over, keeping each loop's best and final ones.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { RALPH_DIR } from '../../core/constants';
import { pruneCheckpoints } from '../../activities/workspace/prune';
import { runCommand } from '../run-command';

/** Options of `ralph checkpoints prune`. */
export const PruneOptions = z.object({
  stateDir: z.string().min(1).optional(),
  loop: z.string().min(1).optional(),
  olderThanDays: z.coerce
    .number({ error: '--older-than-days must be a number of days (0 or more)' })
    .min(0, '--older-than-days must be 0 or more')
    .optional(),
  dryRun: z.boolean().default(false),
  json: z.boolean().default(false),
});
/** Options of `ralph checkpoints prune`. */
export type PruneOptions = z.infer<typeof PruneOptions>;

/** Registers `ralph checkpoints` and its `prune` subcommand. */
export function checkpointsCommand(program: Command): Command {
  const cmd = program.command('checkpoints').description("manage loops' workspace checkpoints");
  cmd
    .command('prune')
    .description("delete finished loops' checkpoints once their retention is over (keeps best and final)")
    .option('--state-dir <dir>', "the loops' state dir (default ./.ralph)")
    .option('--loop <loopId>', 'only this loop')
    .option(
      '--older-than-days <n>',
      "loops finished at least n days ago (default: each loop's persistence.checkpoints.keepFinishedDays, 7)",
    )
    .option('--dry-run', 'list what would be deleted, delete nothing')
    .option('--json', 'print the result as JSON')
    .action(
      runCommand(PruneOptions, async (o, _args, ctx) => {
        const stateDir = path.resolve(o.stateDir ?? RALPH_DIR);
        const r = await pruneCheckpoints({
          stateDir,
          loopId: o.loop,
          keepFinishedDays: o.olderThanDays,
          dryRun: o.dryRun,
        });
        if (o.json) return ctx.out.json(r);
        const verb = o.dryRun ? 'would delete' : 'deleted';
        for (const p of r.pruned)
          ctx.out.line(
            `${p.loopId}: ${verb} ${p.deleted.length} checkpoint(s)` +
              `${p.objects ? ` and ${p.objects} stored file(s)` : ''}, kept ${p.kept.join(', ') || 'none'}`,
          );
        for (const s of r.skipped) ctx.out.line(`${s.loopId}: left alone (${s.reason})`);
        if (!r.pruned.length && !r.skipped.length) ctx.out.line(`no loops under ${stateDir}`);
      }),
    );
  return cmd;
}
