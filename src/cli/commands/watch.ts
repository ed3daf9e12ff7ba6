/**
 * `ralph watch <id> [--interval s] [--once]`: a live terminal view of a loop, redrawn every few seconds until it ends:
 * where it stands, the pending human gate with the commands that answer it, the quality trajectory bars (the same as
 * `ralph status --quality`) and the last iterations. Ctrl-C stops watching (the loop goes on).
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { getLoopStatus } from '../../client';
import type { LoopState } from '../../core/loop-types';
import { formatDuration, intOption, runCommand, table, untilInterrupted, useColor } from '../run-command';
import { gateLines } from '../signal-helpers';
import { checkText, antiLazinessViews, positionLine, resultLine } from '../views/loop';

/** Options of `ralph watch`. */
export const WatchOptions = z.object({
  interval: intOption().positive().max(3600).default(2),
  once: z.boolean().default(false),
});

/** One frame of the view. */
export function watchFrame(s: LoopState, connectionFlags = '', now = new Date(), color = false): string[] {
  const t = s.totals;
  const out = [
    `loop ${s.loopId} · ${s.status} · ${positionLine(s)} · agent ${s.agent} · ${now.toISOString()}`,
    t && t.iterations !== undefined
      ? `  checks ${t.checksPassed}/${t.checksRun} passed · gate runs ${t.gateRuns ?? 0} · rejections ${t.rejections ?? 0} · human gates ${t.humanGates} · tokens ${t.inputTokens + t.outputTokens} · cost $${t.costUsd.toFixed(2)}`
      : '',
  ].filter(Boolean);
  if (s.pendingGate) out.push('', ...gateLines(s.loopId, s.pendingGate, connectionFlags, color));
  out.push('', ...(antiLazinessViews(s, { persistence: false, regressions: false, quality: true })?.lines ?? []));
  const records = s.records.slice(-5);
  if (records.length)
    out.push(
      '',
      ...table(
        ['n', 'outcome', 'verdict', 'quality', 'check', 'duration'],
        records.map((r) => [
          r.n,
          r.outcome,
          r.verdict ?? '',
          r.quality === undefined ? '' : `${r.quality}%`,
          checkText(r),
          formatDuration(r.durationMs),
        ]),
      ).map((l) => `  ${l}`),
    );
  if (s.result) out.push('', `result: ${resultLine(s.result)}`);
  return out;
}

/** Registers `ralph watch` on the program. */
export function watchCommand(program: Command): Command {
  return program
    .command('watch <loopId>')
    .description('live view of a loop (quality bars, gate, last iterations) until it ends')
    .option('--interval <seconds>', 'seconds between redraws (default 2)')
    .option('--once', 'print one frame and exit')
    .action(
      runCommand(WatchOptions, async (o, [loopId], ctx) => {
        const client = await ctx.client();
        const tty = process.stdout.isTTY === true && !o.once;
        const interrupt = untilInterrupted(() => undefined);
        let stopped = false;
        void interrupt.stopped.then(() => (stopped = true));
        try {
          for (;;) {
            const s = await getLoopStatus(client, loopId);
            // Clear the screen and home the cursor: one frame at a time on a terminal, appended otherwise.
            if (tty) process.stdout.write('\x1b[2J\x1b[H');
            for (const l of watchFrame(s, ctx.connectionFlags, new Date(), tty && useColor(undefined, process.stdout)))
              ctx.out.line(l);
            if (o.once || s.result || stopped) return;
            await Promise.race([new Promise((r) => setTimeout(r, o.interval * 1000)), interrupt.stopped]);
            if (stopped) return;
            if (!tty) ctx.out.line('');
          }
        } finally {
          interrupt.dispose();
        }
      }),
    );
}
