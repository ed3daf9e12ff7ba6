import type { Command } from 'commander';
import { z } from 'zod';
import { RALPH_DIR } from '../../core/constants';
import type { InterventionEvent } from '../../core/anti-laziness-types';
import { interventionsView } from '../../views/report';
import { locateLoop, readEvents } from '../loop-folder';
import { intOption, runCommand } from '../run-command';

/** Options of `ralph interventions`. */
export const InterventionsOptions = z.object({
  last: intOption().positive().optional(),
  json: z.boolean().default(false),
  stateDir: z.string().min(1).optional(),
});
/** Options of `ralph interventions`. */
export type InterventionsOptions = z.infer<typeof InterventionsOptions>;

/** Registers `ralph interventions`. */
export function interventionsCommand(program: Command): Command {
  return program
    .command('interventions <loopId>')
    .description("list a loop's anti-laziness findings (no files written, false completion, test deletion...)")
    .option('--last <n>', 'only the last n events')
    .option('--json', 'print the events as JSON')
    .option('--state-dir <dir>', "the loops' state dir (default: the loop's own, else ./.ralph)")
    .action(
      runCommand(InterventionsOptions, async (o, [loopId], ctx) => {
        const where = await locateLoop(ctx, loopId, o.stateDir);
        let events: InterventionEvent[];
        try {
          events = readEvents(where.dir, loopId);
        } catch (e) {
          if (where.unreachable && !o.stateDir)
            ctx.out.note(`ralph: loop state not available (${where.unreachable}); looked under ./${RALPH_DIR}`);
          throw e;
        }
        const shown = o.last ? events.slice(-o.last) : events;
        if (o.json) return ctx.out.json(shown);
        for (const l of interventionsView(events, o.last)) ctx.out.line(l);
      }),
    );
}
