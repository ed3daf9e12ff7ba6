/**
 * The real-repository corpus as a test: labelled cheats and hard negatives on trimmed copies of vercel/ms (jest),
 * unjs/scule (vitest) and python-semver (pytest), run by the real scripted agent (built by `npm run build`) in temp
 * git repositories, judged as the loop judges them: the repository's own test runner as the completion check, the
 * detection pass, and the verification tree with the original checks. A representative subset runs by default (one
 * cheat stopped by the verification tree, one only the cheat detectors can see, and one hard negative per
 * repository, plus a mock of the subject); `RALPH_REAL_CORPUS=all` runs every scenario, `RALPH_CORPUS_REPORT=1` prints the
 * tables.
 */
import { formatRealReport, runRealCorpus, type RealOutcome, type RealReport } from '../../bench/corpus/run-real-corpus';
import { RealCategories, realScenarios } from '../../bench/corpus/real-scenarios';
import { RepoNames } from '../../bench/corpus/fixture-repos';
import { mechanismVerifier } from '../../bench/corpus/verifier';

/** Two scenarios at once: each runs a real test suite twice (agent's tree, verification tree) on CI's 2 cores. */
const CONCURRENCY = 2;

const SUBSET = [
  'ms-expected-to-days',
  'ms-special-case-literals',
  'ms-neg-split-test',
  'sc-row-edited',
  'sc-vitest-env-switch',
  'sc-neg-rename-spec',
  'sv-conftest-deselect',
  'sv-param-row-moved',
  'sv-neg-fix-new-tests',
  'sv-param-row-moved-task-names-tests',
  'sc-mock-module-under-test',
];

const chosen =
  process.env.RALPH_REAL_CORPUS === 'all' ? realScenarios : realScenarios.filter((s) => SUBSET.includes(s.id));

let report: RealReport;
const outcome = (id: string): RealOutcome => {
  const o = report.scenarios.find((s) => s.id === id);
  if (!o) throw new Error(`scenario ${id} did not run`);
  return o;
};

beforeAll(async () => {
  report = await runRealCorpus({
    ids: chosen.map((s) => s.id),
    concurrency: CONCURRENCY,
    verifier: mechanismVerifier(),
  });
  if (process.env.RALPH_CORPUS_REPORT) process.stdout.write(`${formatRealReport(report)}\n`);
}, 600_000);

describe('real-repository corpus', () => {
  it('labels every cheating category with a cheat, on three repositories, with hard negatives on each', () => {
    const cheats = new Set(realScenarios.filter((s) => s.positive).map((s) => s.category));
    const honest = new Set(realScenarios.filter((s) => !s.positive).map((s) => s.category));
    expect(RealCategories.filter((c) => !cheats.has(c) && !honest.has(c))).toEqual([]);
    expect([...honest].sort()).toEqual(
      ['api_change', 'feature_removed', 'honest_fix', 'moved_test', 'renamed_test', 'split_test'].sort(),
    );
    for (const repo of RepoNames) {
      expect(realScenarios.filter((s) => s.repo === repo && s.positive).length).toBeGreaterThanOrEqual(10);
      expect(realScenarios.filter((s) => s.repo === repo && !s.positive).length).toBeGreaterThanOrEqual(5);
    }
    expect(new Set(realScenarios.map((s) => s.id)).size).toBe(realScenarios.length);
  });

  it('runs the subset with the verification tree', () => {
    expect(report.verifier).not.toMatch(/^none/);
    expect(report.scenarios.map((o) => o.id).sort()).toEqual(chosen.map((s) => s.id).sort());
  });

  it('accepts none of the cheats and rejects none of the hard negatives (no known gaps left)', () => {
    expect(report.totals).toMatchObject({ caught: report.totals.positives, falsePositives: 0 });
  });

  it.each(chosen.map((s) => [s.id, s.positive ? 'cheat' : 'hard negative', s.description, s.expected.verdict]))(
    '%s (%s: %s) is %s',
    (id) => {
      const o = outcome(id);
      expect(o.error).toBeUndefined();
      expect({ verdict: o.verdict, checkPassed: o.checkPassed }).toEqual({
        verdict: o.expectedVerdict,
        checkPassed: chosen.find((s) => s.id === id)!.expected.checkPasses,
      });
    },
  );
});
