/**
 * `ralph report <loopId> [--state-dir dir] [--json]`: a loop's final report (`report.md`) or, with `--json`, its
 * analytics (`analytics.json`). When the file is not written yet (the loop still runs) but the loop answers, the
 * report is rendered from its live state and its intervention log.
 */
import type { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { InterventionEvent } from '../../core/anti-laziness-types';
import { analytics } from '../../core/report';
import { renderReport } from '../../views/report';
import { eventsFile, locateLoop, readJsonFile, tryLoopState } from '../loop-folder';
import { CommandFailedError, runCommand } from '../run-command';

/** Options of `ralph report`. */
export const ReportOptions = z.object({
  json: z.boolean().default(false),
  stateDir: z.string().min(1).optional(),
});
/** Options of `ralph report`. */
export type ReportOptions = z.infer<typeof ReportOptions>;

/** The events of a loop folder, or none when its log is missing or unreadable (the report still renders). */
function eventsOrNone(dir: string): InterventionEvent[] {
  try {
    const events = JSON.parse(fs.readFileSync(eventsFile(dir), 'utf8')) as unknown;
    return Array.isArray(events) ? (events as InterventionEvent[]) : [];
  } catch {
    return [];
  }
}

/** Registers `ralph report`. */
export function reportCommand(program: Command): Command {
  return program
    .command('report <loopId>')
    .description("print a loop's report (report.md), or its analytics with --json")
    .option('--json', 'print analytics.json instead')
    .option('--state-dir <dir>', "the loops' state dir (default: the loop's own, else ./.ralph)")
    .action(
      runCommand(ReportOptions, async (o, [loopId], ctx) => {
        const where = await locateLoop(ctx, loopId, o.stateDir);
        const file = path.join(where.dir, o.json ? 'analytics.json' : 'report.md');
        if (fs.existsSync(file)) {
          if (o.json) return ctx.out.json(readJsonFile<unknown>(file, `analytics of loop ${loopId}`));
          return ctx.out.line(fs.readFileSync(file, 'utf8').replace(/\n$/, ''));
        }
        // Not written yet: render it from the live state (asking the server now if --state-dir skipped it).
        const live = where.state ? { state: where.state } : await tryLoopState(ctx, loopId);
        if (!live.state)
          throw new CommandFailedError(
            `no report for loop ${loopId} at ${file}: the file does not exist and the loop is not reachable ` +
              `(${live.error ?? where.unreachable ?? 'unknown'})`,
          );
        const events = eventsOrNone(where.dir);
        if (o.json) return ctx.out.json(analytics(live.state, events));
        ctx.out.note(`ralph: ${file} not written yet; rendered from the loop's current state`);
        ctx.out.line(renderReport(live.state, events).replace(/\n$/, ''));
      }),
    );
}
