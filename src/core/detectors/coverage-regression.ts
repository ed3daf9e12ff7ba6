/**
 * Coverage regression: line coverage fell below the loop's baseline because code lost its tests, not because covered
 * code was tidied away. Counts decide, not just the percentage.
 */
import { detection, type Detection } from '../detections';
import type { CoverageCount } from '../gates';

const pct = (p: number): string => `${p.toFixed(1)}%`;

/**
 * Compares current line coverage with the baseline. A regression needs both: the percentage fell by more than
 * `tolerance` points, and the number of uncovered lines grew. A refactor that deletes covered code lowers the
 * percentage without adding uncovered lines, so it is not one. A baseline with no measured lines (`total` 0) is no
 * baseline. Gives a `coverage_regression` warning (WARN), or undefined.
 */
export function detectCoverageRegression(
  baseline: CoverageCount,
  current: CoverageCount,
  tolerance: number,
): Detection | undefined {
  if (baseline.total <= 0) return undefined;
  const uncoveredBefore = baseline.total - baseline.covered;
  const uncoveredNow = current.total - current.covered;
  if (!(current.pct < baseline.pct - tolerance && uncoveredNow > uncoveredBefore)) return undefined;
  return detection(
    'coverage_regression',
    'warning',
    `Line coverage ${pct(baseline.pct)} → ${pct(current.pct)} (uncovered lines ${uncoveredBefore} → ${uncoveredNow}), ` +
      `more than the ${tolerance}-point tolerance: new or changed code needs tests, coverage must not go down.`,
    [
      `baseline: ${baseline.covered}/${baseline.total} lines covered (${pct(baseline.pct)})`,
      `current: ${current.covered}/${current.total} lines covered (${pct(current.pct)})`,
    ],
  );
}
