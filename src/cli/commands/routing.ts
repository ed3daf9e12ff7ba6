/**
 * `ralph routing stats [--state-dir dir] [--json]`: routing figures from the routing logs of every loop under the
 * state dir (`<stateDir>/loops/<id>/routing/log.jsonl`): agent load success rate, handoffs per task, domain switch
 * frequency, load latency p50/p95/p99, routing accuracy against overrides. No server needed.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { readRoutingLogs } from '../../state/routing-files';
import { RALPH_DIR } from '../../core/constants';
import { routingStats } from '../../core/routing/log';
import { CommandFailedError, runCommand, table } from '../run-command';

/** Options of `ralph routing stats`. */
export const RoutingStatsOptions = z.object({
  stateDir: z.string().min(1).default(RALPH_DIR),
  json: z.boolean().default(false),
});

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

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
      }),
    );
  return routing;
}
