/**
 * `ralph stats [--since 7d] [--limit n] [--json | --prometheus]`: quality metrics across the loops of a time window,
 * each beside the design's target (met / missed), with the rejection breakdown, failure reasons by category, false
 * positives and negatives, and the anti-laziness interventions.
 */
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { z } from 'zod';
import { getLoopStatus, listLoops } from '../../client';
import { gateStats, parseSince, type GateStats, type LoopFacts, type TargetCheck } from '../../core/stats';
import { readFlags } from '../../state/flags';
import { statsExposition } from '../../telemetry/metrics';
import { UsageError } from '../errors';
import { stateDirOf } from '../loop-folder';
import { intOption, runCommand, table } from '../run-command';

/** Options of `ralph stats`. */
export const StatsOptions = z.object({
  since: z
    .string()
    .default('7d')
    .refine((s) => s === 'all' || parseSince(s, Date.now()) !== undefined, {
      message: 'use a window like 7d, 24h, 30m, 2w, an ISO date (2026-11-01), or all',
    }),
  limit: intOption().positive().max(10000).default(1000),
  json: z.boolean().default(false),
  prometheus: z.boolean().default(false),
});

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** Reads the state and the flags of each loop of the window; counts those whose state could not be read. */
async function loopFacts(
  client: Client,
  since: string | undefined,
  limit: number,
): Promise<{ facts: LoopFacts[]; unread: number }> {
  const facts: LoopFacts[] = [];
  let unread = 0;
  for (const l of await listLoops(client, { limit, since })) {
    const s = await getLoopStatus(client, l.loopId).catch(() => undefined);
    if (!s) unread++;
    if (!s || !s.records.length) continue;
    const dir = stateDirOf(s);
    let flags: LoopFacts['flags'];
    try {
      flags = dir ? readFlags(dir, s.loopId) : undefined;
    } catch {
      flags = undefined;
    }
    facts.push({ state: s, flags });
  }
  return { facts, unread };
}

/** Registers `ralph stats`. */
export function statsCommand(program: Command): Command {
  return program
    .command('stats')
    .description('quality metrics of recent loops beside the design targets: pass rate, rejections, escalations...')
    .option('--since <window>', 'loops running, started or ended in this window: 7d, 24h, 2w, a date, or all', '7d')
    .option('--limit <n>', 'look at no more than this many loops, newest first (default 1000)')
    .option('--json', 'print the metrics as JSON')
    .option('--prometheus', 'print the metrics as Prometheus gauges (for a textfile collector)')
    .action(
      runCommand(StatsOptions, async (o, _args, ctx) => {
        if (o.json && o.prometheus) throw new UsageError('--json and --prometheus: choose one output format');
        const since = o.since === 'all' ? undefined : parseSince(o.since, Date.now());
        const { facts, unread } = await loopFacts(await ctx.client(), since, o.limit);
        const st = gateStats(facts, since);
        if (unread) ctx.out.note(`ralph: ${unread} loop(s) left out: their state could not be read (no worker?)`);
        if (o.json) return ctx.out.json(st);
        if (o.prometheus) return ctx.out.line(await statsExposition(st));
        for (const l of statsLines(st, o.since)) ctx.out.line(l);
      }),
    );
}

const targetText = (t: TargetCheck, v: number): string => (t.unit === 'rate' ? pct(v) : String(v));

/** The human view of the metrics. */
export function statsLines(st: GateStats, window: string): string[] {
  const out = [
    `Quality over ${st.since ? `the last ${window} (since ${st.since})` : 'all loops'}: ${st.loops} loops ` +
      `(${st.loopsWithGates} with gates), ${st.iterations} iterations`,
    '',
    ...table(
      ['FIGURE', 'VALUE', 'TARGET', 'STATUS', 'OVER'],
      st.targets.map((t) => [
        t.label,
        targetText(t, t.figure),
        `${t.op === '<=' ? '' : `${t.op} `}${targetText(t, t.value)}`,
        t.met === undefined ? 'n/a' : t.met ? 'met' : 'missed',
        `${t.over} ${t.key === 'falseNegativeRate' ? 'accepted ' : ''}loops`,
      ]),
    ).map((l) => `  ${l}`),
  ];
  const r = st.rejections;
  const row = (label: string, s: { count: number; share: number }): string => `${label}: ${s.count} (${pct(s.share)})`;
  out.push('', `Loops with gates: ${st.loopsWithGates}`);
  out.push(`  ├─ ${row('not rejected', r.notRejected)}`, `  ├─ ${row('rejected 1x', r.once)}`);
  out.push(`  ├─ ${row('rejected 2x', r.twice)}`, `  ├─ ${row('rejected 3x+', r.threeOrMore)}`);
  out.push(`  └─ ${row('escalated', r.escalated)}`);
  if (st.gates.length) {
    out.push('', 'Gate performance:');
    out.push(
      ...table(
        ['GATE', 'KIND', 'RUNS', 'PASS RATE', 'MEAN'],
        st.gates.map((g) => [g.name, g.kind ?? '-', g.runs, pct(g.passRate), `${(g.meanMs / 1000).toFixed(1)}s`]),
      ).map((l) => `  ${l}`),
    );
  }
  if (st.failureCategories.length) {
    out.push('', 'Top failure reasons:');
    st.failureCategories.forEach((c, i) => out.push(`  ${i + 1}. ${c.category} (${pct(c.share)}, ${c.count})`));
    for (const f of st.topFailureReasons.slice(0, 5)) out.push(`     ${f.count}×  ${f.reason}`);
  }
  return [...out, ...trustLines(st)];
}

/** Human gates, false positives and negatives, interventions. */
function trustLines(st: GateStats): string[] {
  const out: string[] = [];
  const list = (m: Record<string, number>): string =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  out.push('', `Human gates: ${list(st.humanGates)}`);
  const fp = st.falsePositives;
  out.push(
    `False positives: ${fp.approved} of ${fp.decided} decided detector gates approved by a human` +
      (fp.loops.length ? ` (${fp.loops.join(', ')})` : ''),
  );
  const fn = st.falseNegatives;
  out.push(
    `False negatives: ${fn.flagged.length} of ${fn.accepted} accepted loops flagged` +
      (fn.flagged.length ? ` (${fn.flagged.join(', ')})` : '') +
      (fn.unreadable.length ? `; ${fn.unreadable.length} not checked (state folder not on this machine)` : ''),
  );
  for (const f of fn.flags) out.push(`  ${f.loopId}: ${f.reason}${f.by ? ` (${f.by}, ${f.at})` : ''}`);
  const iv = st.interventions;
  out.push(
    '',
    `Interventions: ${iv.total} (${iv.per100Iterations} per 100 iterations); remediation success ` +
      `${pct(iv.remediation.rate)} (${iv.remediation.remediated} of ${iv.remediation.judged})`,
    `  by type: ${list(iv.byType)}`,
    `  by severity: ${list(iv.bySeverity)}`,
  );
  return out;
}
