/** `ralph list [--awaiting-human] [--limit n] [--json]`: the loops on the server, newest first. */
import type { Command } from 'commander';
import { z } from 'zod';
import { listLoops, type LoopSummary } from '../../client';
import { intOption, runCommand, table } from '../run-command';

/** Options of `ralph list`. */
export const ListOptions = z.object({
  awaitingHuman: z.boolean().default(false),
  limit: intOption().positive().max(10_000).default(20),
  json: z.boolean().default(false),
});

/** Registers `ralph list` on the program. */
export function listCommand(program: Command): Command {
  return program
    .command('list')
    .description('list loops, newest first')
    .option('--awaiting-human', 'only running loops waiting at a human gate')
    .option('--limit <n>', 'at most this many loops (default 20)')
    .option('--json', 'print the rows as JSON')
    .action(
      runCommand(ListOptions, async (o, _args, ctx) => {
        const loops = await listLoops(await ctx.client(), { awaitingHuman: o.awaitingHuman, limit: o.limit });
        if (o.json) {
          ctx.out.json(loops);
          return;
        }
        if (!loops.length) {
          ctx.out.line(
            o.awaitingHuman ? 'no loop is waiting for a human' : 'no loops yet: start one with `ralph start`',
          );
          return;
        }
        for (const l of listLines(loops)) ctx.out.line(l);
      }),
    );
}

/** The loops as a text table. */
export function listLines(loops: LoopSummary[]): string[] {
  return table(
    ['LOOP', 'STATUS', 'ITER', 'AGENT', 'GATE', 'STARTED'],
    loops.map((l) => [
      l.loopId,
      loopStatus(l),
      l.iteration,
      l.agent,
      l.awaitingHuman ? 'waiting' : '',
      l.startTime.replace(/\.\d+Z$/, 'Z'),
    ]),
  );
}

/** The loop's own status, unless the workflow ended some other way (terminated, failed before recording one). */
function loopStatus(l: LoopSummary): string {
  const terminal = ['accepted', 'aborted', 'failed'];
  if (l.workflowStatus === 'RUNNING' || (l.status && terminal.includes(l.status))) return l.status ?? 'starting';
  return l.workflowStatus.toLowerCase();
}
