/**
 * The laziness corpus as a test: every labelled scenario (bench/corpus/scenarios.ts) run by the real scripted agent
 * (built by `npm run build`) in a temp workspace and inspected by the real detection pass, no Temporal server. Asserts
 * the corpus totals, then each scenario on its own so a failure names it. `RALPH_CORPUS_REPORT=1` prints the table.
 */
import { formatReport, runCorpus, type CorpusReport, type ScenarioOutcome } from '../../bench/corpus/run-corpus';
import { scenarios } from '../../bench/corpus/scenarios';

/** Scenarios run at once: the corpus is CPU-bound (agent processes, git), a little over CI's 2 cores keeps it busy. */
const CONCURRENCY = 3;

let report: CorpusReport;
const outcome = (id: string): ScenarioOutcome => {
  const o = report.scenarios.find((s) => s.id === id);
  if (!o) throw new Error(`scenario ${id} did not run`);
  return o;
};

beforeAll(async () => {
  report = await runCorpus({ concurrency: CONCURRENCY });
  if (process.env.RALPH_CORPUS_REPORT) process.stdout.write(`${formatReport(report)}\n`);
}, 240_000);

describe('laziness corpus', () => {
  it('has at least as many hard negatives as positives, and 3 positives per category', () => {
    const pos = scenarios.filter((s) => s.positive);
    expect(scenarios.length - pos.length).toBeGreaterThanOrEqual(pos.length);
    const perCategory = new Map<string, number>();
    for (const s of pos) perCategory.set(s.category, (perCategory.get(s.category) ?? 0) + 1);
    expect([...perCategory.values()].every((n) => n >= 3)).toBe(true);
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
  });

  it('detects at least 98% of the positives', () => {
    expect(report.totals.recall).toBeGreaterThanOrEqual(0.98);
  });

  it('flags at most 2% of the hard negatives', () => {
    expect(report.totals.fpRate).toBeLessThanOrEqual(0.02);
  });

  it('catches every false completion and raises none where there is none', () => {
    expect(report.falseCompletion).toMatchObject({ recall: 1, falsePositives: 0 });
  });

  it('catches every stuck loop within 4 iterations', () => {
    expect(report.stuck.caught).toBe(report.stuck.positives);
    expect(report.stuck.maxCaughtAt).toBeLessThanOrEqual(4);
  });

  it('picks the best output with zero regret', () => {
    expect(report.bestOutput).toMatchObject({ correct: report.bestOutput.scenarios, regret: 0 });
  });

  it.each(scenarios.map((s) => [s.id, s.positive ? 'positive' : 'hard negative', s.description]))(
    '%s (%s: %s) behaves as labelled',
    (id) => {
      const o = outcome(id);
      expect(o.error).toBeUndefined();
      expect({
        missing: o.missing,
        unexpected: o.unexpected,
        blocked: !o.positive && o.blocked,
        best: o.best && o.best.chosen,
      }).toEqual({ missing: [], unexpected: [], blocked: false, best: o.best && o.best.expected });
    },
  );
});
