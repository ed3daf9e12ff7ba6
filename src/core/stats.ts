/**
 * Gate metrics across loops (`ralph stats`): first-try pass rate, rejections per loop, escalation rate, per-gate pass
 * rate and mean duration, gate overhead as a share of loop time, top failure reasons. Pure aggregation over states.
 */
import type { LoopState } from './loop-types';

/** Per-gate figures. */
export interface GateFigures {
  name: string;
  runs: number;
  passRate: number;
  meanMs: number;
}

/** What `ralph stats` shows. */
export interface GateStats {
  loops: number;
  loopsWithGates: number;
  /** Share of loops whose first gate run passed every gate. */
  firstTryPassRate: number;
  rejectionsPerLoop: number;
  /** Share of loops that reached the rejections gate (a human had to decide). */
  escalationRate: number;
  gates: GateFigures[];
  /** Gate time as a share of agent + check + gate time. */
  gateOverheadShare: number;
  topFailureReasons: { reason: string; count: number }[];
}

const share = (a: number, b: number): number => (b ? Math.round((a / b) * 1000) / 1000 : 0);

/** Aggregates gate metrics over loop states. */
export function gateStats(states: LoopState[]): GateStats {
  const withGates = states.filter((s) => s.records.some((r) => r.gates?.length));
  const firstTry = withGates.filter((s) =>
    s.records.find((r) => r.gates?.length)!.gates!.every((g) => g.passed),
  ).length;
  const escalated = withGates.filter(
    (s) => s.pendingGate?.reason === 'rejections' || s.decisions.some((d) => d.gateId.startsWith('rejections@')),
  ).length;
  const perGate = new Map<string, { runs: number; passed: number; ms: number }>();
  let gateMs = 0;
  let workMs = 0;
  const reasons = new Map<string, number>();
  for (const s of states) {
    for (const [name, g] of Object.entries(s.gateStats ?? {})) {
      const acc = perGate.get(name) ?? { runs: 0, passed: 0, ms: 0 };
      perGate.set(name, { runs: acc.runs + g.runs, passed: acc.passed + g.passed, ms: acc.ms + g.ms });
    }
    gateMs += s.totals.gateMs ?? 0;
    workMs += s.totals.agentMs + s.totals.checkMs + (s.totals.gateMs ?? 0);
    for (const r of s.records)
      for (const g of r.gates ?? [])
        if (!g.passed) {
          // Numbers vary run to run; the reason is the shape: "unit: N of N failing".
          const key = `${g.name}: ${g.actual.replace(/\d+(\.\d+)?/g, 'N')}`;
          reasons.set(key, (reasons.get(key) ?? 0) + 1);
        }
  }
  return {
    loops: states.length,
    loopsWithGates: withGates.length,
    firstTryPassRate: share(firstTry, withGates.length),
    rejectionsPerLoop: withGates.length
      ? Math.round((withGates.reduce((a, s) => a + (s.totals.rejections ?? 0), 0) / withGates.length) * 100) / 100
      : 0,
    escalationRate: share(escalated, withGates.length),
    gates: [...perGate.entries()]
      .map(([name, g]) => ({
        name,
        runs: g.runs,
        passRate: share(g.passed, g.runs),
        meanMs: Math.round(g.ms / Math.max(1, g.runs)),
      }))
      .sort((a, b) => b.runs - a.runs),
    gateOverheadShare: share(gateMs, workMs),
    topFailureReasons: [...reasons.entries()]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, 10),
  };
}
