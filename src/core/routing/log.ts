/**
 * The routing log: one JSON line per decision (`<loopDir>/routing/log.jsonl`), and the figures `ralph routing stats`
 * computes from it: agent load success rate, handoffs per task, domain switch frequency, load latency percentiles and
 * routing accuracy against overrides.
 */

import { reliabilityTable, type ReliabilityRow } from './model';

/** Kinds of routing log entries. */
export const RoutingEvents = {
  /** A classification and what it chose (routed or base agent). */
  decision: 'decision',
  /** A profile load: `ok`, `loadMs`, `reason` when it failed (and the base agent ran instead). */
  load: 'load',
  /** A routed agent's run failed (counts for the breaker). */
  run_failed: 'run_failed',
  handoff: 'handoff',
  /** A handoff refused: invalid target, secrets, limit or cycle (`MaxHandoffsExceeded`). */
  handoff_refused: 'handoff_refused',
  switch: 'switch',
  /** An operator forced an agent (`ralph route <id> --agent`): `suggested` is what routing had chosen. */
  override: 'override',
  /** A routed agent reached its profile's budget and handed back to the base agent (`from`, `reason`). */
  budget_exhausted: 'budget_exhausted',
  breaker_open: 'breaker_open',
  breaker_closed: 'breaker_closed',
} as const;
/** One of {@link RoutingEvents}. */
export type RoutingEvent = (typeof RoutingEvents)[keyof typeof RoutingEvents];

/** One line of the routing log. */
export interface RoutingLogEntry {
  /** ISO time (workflow time). */
  at: string;
  event: RoutingEvent;
  loopId: string;
  /** Project task the loop works on, when it is a project's child. */
  taskId?: string;
  iteration?: number;
  domain?: string;
  confidence?: number;
  complexity?: number;
  /** The profile routing suggested (undefined: the base agent). */
  suggested?: string;
  /** The agent that actually runs (undefined: the base agent). */
  chosen?: string;
  from?: string;
  to?: string;
  ok?: boolean;
  loadMs?: number;
  reason?: string;
  /** `critical` for a breaker opening; else `info`/`warning`. */
  level?: 'info' | 'warning' | 'error' | 'critical';
}

/** What `ralph routing stats` shows. */
export interface RoutingStats {
  entries: number;
  /** Distinct loops (tasks) with at least one decision. */
  tasks: number;
  decisions: number;
  /** Decisions that routed to a specialist. */
  routed: number;
  loads: number;
  loadSuccessRate: number;
  loadErrors: Record<string, number>;
  loadLatencyMs: { p50: number; p95: number; p99: number };
  handoffs: number;
  handoffsPerTask: number;
  handoffsRefused: number;
  switches: number;
  /** Switches per decision. */
  switchFrequency: number;
  overrides: number;
  /** Share of routed suggestions not overridden by an operator to another agent. */
  accuracy: number;
  breakerOpened: number;
  /** Routed agents that reached their profile's budget and handed back to the base agent. */
  budgetsExhausted: number;
  byAgent: { agent: string; loads: number; failures: number }[];
  /**
   * Reliability of the confidence against human overrides: every decision that routed to a specialist, binned by its
   * confidence; it was right unless an operator's override at that iteration replaced it with another agent.
   */
  reliability: { rows: ReliabilityRow[]; ece: number; decisions: number; overridden: number };
}

/** Nearest-rank percentile (0-100) of sorted-or-not values; 0 when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const share = (a: number, b: number): number => (b ? Math.round((a / b) * 1000) / 1000 : 0);

/** Aggregates routing figures over log entries (of any number of loops). */
export function routingStats(entries: readonly RoutingLogEntry[]): RoutingStats {
  const by = (e: RoutingEvent) => entries.filter((x) => x.event === e);
  const decisions = by('decision');
  const loads = by('load');
  const okLoads = loads.filter((l) => l.ok);
  const latencies = okLoads.map((l) => l.loadMs ?? 0);
  const loadErrors: Record<string, number> = {};
  for (const l of loads) if (!l.ok) loadErrors[l.reason ?? 'unknown'] = (loadErrors[l.reason ?? 'unknown'] ?? 0) + 1;
  const tasks = new Set(decisions.map((d) => `${d.loopId}\u0000${d.taskId ?? ''}`)).size;
  const handoffs = by('handoff').length;
  const overrides = by('override');
  const suggestions = decisions.filter((d) => d.suggested).length;
  const wrong = overrides.filter((o) => o.chosen !== o.suggested).length;
  const agents = new Map<string, { loads: number; failures: number }>();
  for (const l of loads) {
    const name = l.chosen ?? l.suggested ?? 'unknown';
    const a = agents.get(name) ?? { loads: 0, failures: 0 };
    a.loads++;
    if (!l.ok) a.failures++;
    agents.set(name, a);
  }
  for (const f of by('run_failed')) {
    const name = f.chosen ?? 'unknown';
    const a = agents.get(name) ?? { loads: 0, failures: 0 };
    a.failures++;
    agents.set(name, a);
  }
  return {
    entries: entries.length,
    tasks,
    decisions: decisions.length,
    routed: decisions.filter((d) => d.chosen).length,
    loads: loads.length,
    loadSuccessRate: share(okLoads.length, loads.length),
    loadErrors,
    loadLatencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
    handoffs,
    handoffsPerTask: tasks ? Math.round((handoffs / tasks) * 100) / 100 : 0,
    handoffsRefused: by('handoff_refused').length,
    switches: by('switch').length,
    switchFrequency: share(by('switch').length, decisions.length),
    overrides: overrides.length,
    accuracy: suggestions + wrong ? share(Math.max(0, suggestions - wrong), Math.max(suggestions, wrong)) : 0,
    breakerOpened: by('breaker_open').length,
    budgetsExhausted: by('budget_exhausted').length,
    reliability: overrideReliability(decisions, overrides),
    byAgent: [...agents.entries()]
      .map(([agent, a]) => ({ agent, ...a }))
      .sort((a, b) => b.loads - a.loads || a.agent.localeCompare(b.agent)),
  };
}

/**
 * The reliability table of routed decisions against human overrides: a decision (loop, iteration) whose suggestion
 * an override at the same iteration replaced with another agent was wrong; the others right.
 */
export function overrideReliability(
  decisions: readonly RoutingLogEntry[],
  overrides: readonly RoutingLogEntry[],
): RoutingStats['reliability'] {
  const key = (e: RoutingLogEntry): string => `${e.loopId}\u0000${e.taskId ?? ''}\u0000${e.iteration ?? ''}`;
  const replaced = new Set(overrides.filter((o) => o.chosen !== o.suggested).map(key));
  const points = decisions
    .filter((d) => d.suggested && typeof d.confidence === 'number')
    .map((d) => ({ confidence: d.confidence as number, right: !replaced.has(key(d)) }));
  const t = reliabilityTable(points);
  return { ...t, decisions: points.length, overridden: points.filter((p) => !p.right).length };
}

/** Parses JSONL routing-log text; lines that aren't entries are skipped and counted. */
export function parseRoutingLog(text: string): { entries: RoutingLogEntry[]; skipped: number } {
  const entries: RoutingLogEntry[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as RoutingLogEntry;
      if (v && typeof v === 'object' && typeof v.event === 'string' && typeof v.loopId === 'string') entries.push(v);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { entries, skipped };
}
