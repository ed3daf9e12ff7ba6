import { detectCoverageRegression } from '../../../../src/core/detectors/coverage-regression';
import type { CoverageCount } from '../../../../src/core/gates';

const cov = (covered: number, total: number): CoverageCount => ({
  covered,
  total,
  pct: total ? (covered / total) * 100 : 100,
});
const baseline = cov(170, 200); // 85.0%, 30 uncovered

describe('detectCoverageRegression', () => {
  it.each<[string, CoverageCount, CoverageCount, number, string]>([
    [
      'new code added without tests',
      baseline,
      cov(187, 239),
      0.5,
      'Line coverage 85.0% → 78.2% (uncovered lines 30 → 52)',
    ],
    [
      'tests deleted, so covered lines became uncovered',
      baseline,
      cov(150, 200),
      0.5,
      '85.0% → 75.0% (uncovered lines 30 → 50)',
    ],
    ['a drop just over the tolerance', baseline, cov(168, 200), 0.5, '85.0% → 84.0% (uncovered lines 30 → 32)'],
    [
      'a drop of 0.1 point with no tolerance',
      cov(1000, 1000),
      cov(999, 1000),
      0,
      '100.0% → 99.9% (uncovered lines 0 → 1)',
    ],
  ])('warns on %s', (_what, before, now, tolerance, details) => {
    const d = detectCoverageRegression(before, now, tolerance);
    expect(d).toMatchObject({ type: 'coverage_regression', severity: 'warning', verdict: 'WARN' });
    expect(d?.details).toContain(details);
    expect(d?.evidence).toEqual([
      `baseline: ${before.covered}/${before.total} lines covered (${before.pct.toFixed(1)}%)`,
      `current: ${now.covered}/${now.total} lines covered (${now.pct.toFixed(1)}%)`,
    ]);
  });

  it.each<[string, CoverageCount, CoverageCount, number]>([
    ['a refactor that deletes covered code (uncovered count unchanged)', baseline, cov(120, 150), 0.5],
    ['a refactor that deletes uncovered and covered code', baseline, cov(100, 125), 0.5],
    ['a drop within the tolerance', baseline, cov(169, 200), 1],
    ['more uncovered lines but a higher percentage', baseline, cov(300, 340), 0.5],
    ['unchanged coverage', baseline, baseline, 0],
    ['better coverage', baseline, cov(190, 200), 0.5],
    ['a baseline with no measured lines', cov(0, 0), cov(5, 10), 0.5],
  ])('does not fire on %s', (_what, before, now, tolerance) => {
    expect(detectCoverageRegression(before, now, tolerance)).toBeUndefined();
  });
});
