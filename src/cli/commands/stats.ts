/** `ralph stats [--limit n] [--json]`: quality-gate metrics across the most recent loops. */
import type { Command } from 'commander';
import { z } from 'zod';
import { getLoopStatus, listLoops } from '../../client';
import type { LoopState } from '../../core/loop-types';
import { gateStats } from '../../core/stats';
import { intOption, runCommand, table } from '../run-command';

/** Options of `ralph stats`. */
export const StatsOptions = z.object({
  limit: intOption().positive().max(1000).default(100),
  json: z.boolean().default(false),
});

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** Registers `ralph stats`. */
export function statsCommand(program: Command): Command {
  return program
    .command('stats')
    .description('quality-gate metrics across recent loops: pass rates, rejections, escalations, gate overhead')
    .option('--limit <n>', 'look at this many recent loops (default 100)')
    .option('--json', 'print the metrics as JSON')
    .action(
      runCommand(StatsOptions, async (o, _args, ctx) => {
        const client = await ctx.client();
        const states: LoopState[] = [];
        for (const l of await listLoops(client, { limit: o.limit })) {
          const s = await getLoopStatus(client, l.loopId).catch(() => undefined);
          if (s && s.records.length) states.push(s);
        }
        const st = gateStats(states);
        if (o.json) return ctx.out.json(st);
        ctx.out.line(`Quality gates over ${st.loops} loops (${st.loopsWithGates} with gates)`);
        ctx.out.line(`  first-try pass rate   ${pct(st.firstTryPassRate)}`);
        ctx.out.line(`  rejections per loop   ${st.rejectionsPerLoop}`);
        ctx.out.line(`  escalation rate       ${pct(st.escalationRate)}`);
        ctx.out.line(`  gate overhead         ${pct(st.gateOverheadShare)} of agent + check + gate time`);
        if (st.gates.length) {
          ctx.out.line('');
          for (const l of table(
            ['GATE', 'RUNS', 'PASS RATE', 'MEAN'],
            st.gates.map((g) => [g.name, g.runs, pct(g.passRate), `${(g.meanMs / 1000).toFixed(1)}s`]),
          ))
            ctx.out.line(`  ${l}`);
        }
        if (st.topFailureReasons.length) {
          ctx.out.line('');
          ctx.out.line('  Top failure reasons:');
          for (const r of st.topFailureReasons) ctx.out.line(`    ${r.count}×  ${r.reason}`);
        }
      }),
    );
}
