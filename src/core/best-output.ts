/**
 * Best-output selection: the final iteration is not always the best one (Self-Refine), so the loop keeps the quality
 * trajectory and picks the iteration whose workspace it would hand over. Pure: restoring it is an activity's job.
 */
import type { BestOutput, AntiLazinessSettings, TrajectoryPoint } from './anti-laziness-types';

/** A quality as shown to humans: `85%`, `72.5%`. */
export const pct = (q: number): string => `${Math.round(q * 10) / 10}%`;

/**
 * Whether a point may be selected at all: it has a checkpoint to restore, reaches `threshold`, is verified when
 * `requireVerification`, and shows no critical regression (its score may come from deleted or weakened checks).
 */
export function isCandidate(p: TrajectoryPoint, cfg: AntiLazinessSettings['bestOutput']): boolean {
  return !!p.checkpoint && !p.regression && p.quality >= cfg.threshold && (!cfg.requireVerification || p.verified);
}

/**
 * Picks the best iteration of a trajectory, or `undefined` when selection is off or no point qualifies
 * ({@link isCandidate}). If any candidate is verified, only verified ones compete; among those the highest quality
 * wins, and on a tie the later iteration (it holds more work). So no eligible candidate ever beats the choice
 * (regret 0). `reason` compares it with the final point.
 */
export function selectBest(
  trajectory: TrajectoryPoint[],
  cfg: AntiLazinessSettings['bestOutput'],
): BestOutput | undefined {
  if (!cfg.enabled || !trajectory.length) return undefined;
  const eligible = trajectory.filter((p) => isCandidate(p, cfg));
  const verified = eligible.filter((p) => p.verified);
  const pool = verified.length ? verified : eligible;
  let best: TrajectoryPoint | undefined;
  for (const p of pool) if (!best || p.quality > best.quality || (p.quality === best.quality && p.n > best.n)) best = p;
  if (!best?.checkpoint) return undefined;
  const final = trajectory.reduce((a, b) => (b.n > a.n ? b : a));
  const reason =
    best.n === final.n
      ? `final iteration ${best.n} is the best (quality ${pct(best.quality)}${best.verified ? ', verified' : ''})`
      : `best quality ${pct(best.quality)} at iteration ${best.n}${best.verified ? ' (verified)' : ''}, not final ` +
        `(iteration ${final.n}: ${pct(final.quality)})`;
  return { iteration: best.n, quality: best.quality, verified: best.verified, checkpoint: best.checkpoint, reason };
}
