/**
 * Rendering of the anti-laziness layer for humans and tools: quality bars, the `status --persistence/--regressions/
 * --quality` views, `ralph interventions` and `ralph profile`, `analytics.json` and `report.md`. Pure: lines and
 * strings in, lines and strings out; the activities and the CLI write or print them.
 */
import type { InterventionEvent, TrajectoryPoint } from './anti-laziness-types';
import type { Verdict } from './detections';
import type { IterationRecord, LoopState } from './loop-types';

/** A point drops this many quality points (or more) below the previous one: shown as a REGRESSION. */
export const QUALITY_DROP = 5;

/** A duration in ms as `1.2s` / `3m04s` / `1h02m`. */
export function formatMs(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The quality trajectory of a loop: the anti-laziness layer's when it is on, else one point per iteration record
 * that has a quality score (verified = its completion check passed).
 */
export function trajectoryOf(state: LoopState): TrajectoryPoint[] {
  if (state.persistence) return state.persistence.trajectory;
  return state.records
    .filter((r): r is IterationRecord & { quality: number } => typeof r.quality === 'number')
    .map((r) => ({
      n: r.n,
      quality: r.quality,
      verified: r.check?.passed === true,
      ...(r.checkpoints?.post ? { checkpoint: r.checkpoints.post } : {}),
    }));
}

export function countBy<T>(xs: T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

/**
 * The contents of `analytics.json`: identity and result, totals, quality trajectory, best vs final, regressions,
 * recovery, reinforcement history, detection counts (by type, severity and verdict) and the agent profile.
 */
export function analytics(state: LoopState, events: InterventionEvent[]): Record<string, unknown> {
  const p = state.persistence;
  const trajectory = trajectoryOf(state);
  const final = trajectory[trajectory.length - 1];
  const best = p?.best;
  const byType = events.length ? countBy(events, (e) => e.type) : { ...(p?.counts ?? {}) };
  const verdicts: Record<Verdict, number> = { PASS: 0, WARN: 0, BLOCK: 0 };
  for (const e of events) verdicts[e.verdict]++;
  return {
    loopId: state.loopId,
    status: state.status,
    result: state.result ?? null,
    agent: state.agent,
    iterations: state.iteration,
    maxIterations: state.maxIterations,
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
    persistence: !!p,
    totals: state.totals,
    qualityTrajectory: trajectory,
    best: best ?? null,
    final: final ?? null,
    bestVsFinal:
      best && final
        ? {
            bestIteration: best.iteration,
            finalIteration: final.n,
            bestIsFinal: best.iteration === final.n,
            qualityGain: Math.round((best.quality - final.quality) * 10) / 10,
            restoredTo: best.restoredTo ?? null,
          }
        : null,
    regressions: p?.regressions ?? [],
    recovery: p
      ? { attempts: p.recovery.attempts, retries: p.recovery.retries, history: p.recovery.history }
      : { attempts: 0, retries: 0, history: [] },
    reinforcement: p ? { level: p.level, reason: p.levelReason, history: p.levelHistory } : null,
    detections: {
      total: events.length,
      byType,
      bySeverity: countBy(events, (e) => e.severity),
      byVerdict: verdicts,
    },
    circuitOpen: p?.circuitOpen ?? false,
    profile: p?.profile ?? null,
  };
}
