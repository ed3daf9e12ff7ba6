/**
 * `ralph routing stats [--state-dir dir] [--json]`: routing figures from the routing logs of every loop under the
 * state dir (`<stateDir>/loops/<id>/routing/log.jsonl`): agent load success rate, handoffs per task, domain switch
 * frequency, load latency p50/p95/p99, routing accuracy against overrides, budgets used up, and the reliability table
 * of the confidence against human overrides. No server needed.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { readRoutingLogs } from '../../state/routing-files';
import { RALPH_DIR } from '../../core/constants';
import { routingStats, type RoutingStats } from '../../core/routing/log';
import { CommandFailedError, runCommand, table } from '../run-command';

/** Options of `ralph routing stats`. */
export const RoutingStatsOptions = z.object({
  stateDir: z.string().min(1).default(RALPH_DIR),
  json: z.boolean().default(false),
});

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** The reliability table of routed decisions against human overrides, as text. */
export function reliabilityLines(r: RoutingStats['reliability']): string[] {
  const out = [
    '',
    `Reliability vs human overrides (${r.decisions} routed decision(s), ${r.overridden} overridden; ` +
      `right = not replaced by an override)`,
  ];
  if (!r.decisions) return [...out, '  no routed decisions yet'];
  const rows = r.rows.map((row) => [
    `${row.from.toFixed(1)}-${row.to.toFixed(1)}`,
    row.n,
    row.n - row.right,
    row.n ? pct(row.accuracy) : '-',
    row.n ? row.meanConfidence.toFixed(3) : '-',
  ]);
  for (const l of table(['CONFIDENCE', 'DECISIONS', 'OVERRIDDEN', 'RIGHT', 'MEAN CONFIDENCE'], rows))
    out.push(`  ${l}`);
  out.push(`  expected calibration error ${r.ece}`);
  return out;
}

/** Registers `ralph routing` and its `stats` subcommand. */
export function routingCommand(program: Command): Command {
  const routing = program.command('routing').description('automatic agent routing: figures from the routing logs');
  routing
    .command('stats')
    .description('agent load success rate, handoffs per task, switch frequency, load latency, accuracy vs overrides')
    .option('--state-dir <dir>', `the loops' state dir (default ./${RALPH_DIR})`)
    .option('--json', 'print the figures as JSON')
    .action(
      runCommand(RoutingStatsOptions, async (o, _args, ctx) => {
        const dir = path.resolve(o.stateDir);
        const { entries, skipped, files } = readRoutingLogs(dir);
        if (!files.length)
          throw new CommandFailedError(
            `no routing log under ${path.join(dir, 'loops')}: run a loop with agent profiles in .ralph/agents, or ` +
              'point --state-dir at the workspace .ralph folder',
          );
        if (skipped) ctx.out.note(`warning: ${skipped} unreadable line(s) in the routing logs were skipped`);
        const s = routingStats(entries);
        if (o.json) return ctx.out.json({ ...s, logs: files.length, skipped });
        ctx.out.line(
          `Routing over ${s.tasks} task(s), ${s.decisions} decision(s) (${s.routed} routed), ${files.length} log(s)`,
        );
        ctx.out.line(`  agent load success    ${pct(s.loadSuccessRate)} of ${s.loads}`);
        ctx.out.line(
          `  load latency          p50 ${s.loadLatencyMs.p50} ms · p95 ${s.loadLatencyMs.p95} ms · p99 ${s.loadLatencyMs.p99} ms`,
        );
        ctx.out.line(
          `  handoffs per task     ${s.handoffsPerTask} (${s.handoffs} handoffs, ${s.handoffsRefused} refused)`,
        );
        ctx.out.line(`  domain switches       ${s.switches} (${pct(s.switchFrequency)} of decisions)`);
        ctx.out.line(`  accuracy vs overrides ${pct(s.accuracy)} (${s.overrides} override(s))`);
        ctx.out.line(`  breaker opened        ${s.breakerOpened}×`);
        ctx.out.line(`  budgets used up       ${s.budgetsExhausted}`);
        const errors = Object.entries(s.loadErrors);
        if (errors.length) ctx.out.line(`  load errors           ${errors.map(([r, n]) => `${r} ${n}`).join(', ')}`);
        if (s.byAgent.length) {
          ctx.out.line('');
          for (const l of table(
            ['AGENT', 'LOADS', 'FAILURES'],
            s.byAgent.map((a) => [a.agent, a.loads, a.failures]),
          ))
            ctx.out.line(`  ${l}`);
        }
        for (const l of reliabilityLines(s.reliability)) ctx.out.line(l);
      }),
    );
  return routing;
}
