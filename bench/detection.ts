/**
 * npm run bench:detection — how well and how fast the anti-laziness layer detects.
 *
 * 1. The laziness corpus (bench/corpus): every scenario run by the real scripted agent in a temp workspace and
 *    inspected by the real detection pass. Per category: recall on positives, false-positive rate on hard negatives,
 *    detection latency p50/p95 (inspectIteration + AntiLazinessTracker.afterIteration per iteration); false completion,
 *    stuck-loop and best-output figures.
 * 2. A detection pass on a generated 10k-file git repo (bench/snapshot.ts's generator): N rounds of [pre-run checkpoint,
 *    agent-like edit of 5 files including a test file, detection pass] against `git status --porcelain` on the same
 *    repo in the same rounds (their order alternates). Targets: detection p95 < 300 ms and <= 2x git status.
 *
 * 3. The real-repository corpus (bench/corpus/real-scenarios.ts): cheats and hard negatives on trimmed copies of
 *    vercel/ms (jest), unjs/scule (vitest) and python-semver (pytest), each run with the repository's own test runner
 *    as the completion check and, when the loop has it, issue 10's verification tree. Per category: recall (cheats not
 *    accepted), false positives (honest work not accepted), what stopped each cheat; then both corpora together.
 * 4. The cost of verification on the 10k-file repo: the verification run (tree from the post-run checkpoint with the
 *    protected files restored + the original check re-run there) against the normal check run on the same workspace.
 *    Target: <= 1.3x the check's own time + 200 ms.
 *
 * Figures go to bench/results/detection.json. Env: BENCH_FILES (10000), BENCH_RUNS (30), BENCH_CONCURRENCY (1:
 * corpus scenarios at once), BENCH_FILTER (corpus scenarios whose id or category contains it), BENCH_REAL_FILTER
 * (real-repo scenarios whose id, repo or category contains it), BENCH_REAL_CONCURRENCY (1), BENCH_VERIFY_RUNS (10),
 * BENCH_NO_VERIFICATION (judge the real repos without the verification tree, as before issue 10), BENCH_SECTIONS
 * (some of synthetic,real,repo,verify; a partial run keeps the other figures of bench/results/detection.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { inspectIteration } from '../src/activities/inspect-iteration';
import { createCheckpoint } from '../src/activities/workspace/checkpoint';
import { defaultAntiLazinessConfig } from '../src/config/anti-laziness-config';
import { AntiLazinessTracker, postLabel, preLabel } from '../src/core/anti-laziness';
import { describeFailure, formatReport, runCorpus, type CorpusReport } from './corpus/run-corpus';
import {
  describeRealFailure,
  formatRealReport,
  runCheck,
  runRealCorpus,
  table,
  type RealReport,
  type Verifier,
} from './corpus/run-real-corpus';
import { packageRoot } from './corpus/fixture-repos';
import { mechanismVerifier } from './corpus/verifier';
import { generateRepo } from './snapshot';
import { percentile, writeResult } from './stats';
import { finishBench, type Verdicts } from './verdict';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const REAL_CONCURRENCY = Number(process.env.BENCH_REAL_CONCURRENCY ?? 1);
const VERIFY_RUNS = Number(process.env.BENCH_VERIFY_RUNS ?? 10);
/** Targets of the detection pass on the 10k-file repo. */
const TARGET = { p95Ms: 300, vsGitStatus: 2 };
/** Target of the verification run: at most this factor of the check's own time, plus the worktree's allowance. */
const VERIFY_TARGET = { factor: 1.3, treeMs: 200 };

const summary = (ms: number[]): { p50: number; p95: number; max: number } => ({
  p50: +percentile(ms, 50).toFixed(1),
  p95: +percentile(ms, 95).toFixed(1),
  max: +Math.max(...ms).toFixed(1),
});
const since = (t: bigint): number => Number(process.hrtime.bigint() - t) / 1e6;

const TEST_FILE = 'test/pkg.test.ts';

/** What an agent does in one iteration: edits 4 source files (a new function each) and adds a test. */
function agentEdit(dir: string, round: number): void {
  for (let k = 0; k < 4; k++) {
    const i = (round * 4 + k) % FILES;
    const f = path.join(dir, `pkg${String(Math.floor(i / 100)).padStart(3, '0')}`, `file${i}.ts`);
    fs.appendFileSync(f, `\nexport function f${i}r${round}(x: number): number {\n  return x + ${round};\n}\n`);
  }
  fs.appendFileSync(
    path.join(dir, TEST_FILE),
    `\ndescribe('round ${round}', () => {\n  it('adds ${round}', () => {\n    expect(${round} + 1).toBe(${round + 1});\n  });\n});\n`,
  );
}

interface RepoFigures {
  files: number;
  runs: number;
  editedPerRound: number;
  detectionMs: { p50: number; p95: number; max: number };
  inspectIterationMs: { p50: number; p95: number; max: number };
  preCheckpointMs: { p50: number; p95: number; max: number };
  gitStatusMs: { p50: number; p95: number; max: number };
  ratio: { p50: number; p95: number };
  findings: Record<string, number>;
  verdict: { p95UnderTarget: boolean; withinGitStatusRatio: boolean };
}

/** The detection pass on a generated repo of FILES files, RUNS rounds after one warm-up round. */
async function repoBench(): Promise<RepoFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-detection-'));
  try {
    generateRepo(dir, FILES);
    fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, TEST_FILE),
      "describe('pkg', () => {\n  it('loads', () => {\n    expect(1).toBe(1);\n  });\n});\n",
    );
    fs.appendFileSync(path.join(dir, '.git', 'info', 'exclude'), '\n.ralph/\n');
    await execa('git', ['add', '-A'], { cwd: dir });
    await execa('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'tests'], { cwd: dir });

    const stateDir = path.join(dir, '.ralph');
    const loopId = 'bench-detection';
    const cfg = defaultAntiLazinessConfig();
    const tracker = new AntiLazinessTracker(cfg, loopId, 'bench');
    const detection: number[] = [];
    const inspect: number[] = [];
    const pre: number[] = [];
    const status: number[] = [];
    const findings: Record<string, number> = {};
    for (let n = 1; n <= RUNS + 1; n++) {
      const warm = n === 1;
      let t = process.hrtime.bigint();
      const preCp = await createCheckpoint({ workspace: dir, stateDir, loopId, label: preLabel(n) });
      const preMs = since(t);
      tracker.beforeIteration(n);
      agentEdit(dir, n);
      const gitStatus = async (): Promise<number> => {
        const t0 = process.hrtime.bigint();
        await execa('git', ['status', '--porcelain'], { cwd: dir });
        return since(t0);
      };
      // Alternate which goes first, so neither profits from the other's warm caches (or git's index refresh).
      const statusFirst = n % 2 === 0;
      const s1 = statusFirst ? await gitStatus() : undefined;
      t = process.hrtime.bigint();
      const r = await inspectIteration({
        loopId,
        iteration: n,
        workspace: dir,
        stateDir,
        pre: preLabel(n),
        preCommit: preCp.commit,
        post: postLabel(n),
        exitCode: 0,
        claimed: false,
        claimedFiles: [],
        finalTextTail: `round ${n}`,
        detectors: cfg.detectors,
      });
      const inspectMs = since(t);
      const d = tracker.afterIteration({
        n,
        now: new Date().toISOString(),
        claimed: false,
        verified: false,
        exitCode: 0,
        changes: r.changes,
        detections: r.detections,
        hallucinated: r.hallucinated,
        deletedTests: r.deletedTests,
        diffSig: r.diffSig,
        stateSig: r.stateSig,
        outputSig: r.outputSig,
        pre: preLabel(n),
        post: postLabel(n),
        taskChars: 0,
      });
      const detectionMs = since(t);
      const s2 = statusFirst ? undefined : await gitStatus();
      if (warm) continue;
      detection.push(detectionMs);
      inspect.push(inspectMs);
      pre.push(preMs);
      status.push((s1 ?? s2)!);
      for (const type of d.types) findings[type] = (findings[type] ?? 0) + 1;
    }
    const det = summary(detection);
    const st = summary(status);
    const ratio = { p50: +(det.p50 / st.p50).toFixed(2), p95: +(det.p95 / st.p95).toFixed(2) };
    return {
      files: FILES,
      runs: RUNS,
      editedPerRound: 5,
      detectionMs: det,
      inspectIterationMs: summary(inspect),
      preCheckpointMs: summary(pre),
      gitStatusMs: st,
      ratio,
      findings,
      verdict: { p95UnderTarget: det.p95 < TARGET.p95Ms, withinGitStatusRatio: ratio.p95 <= TARGET.vsGitStatus },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function corpusFigures(r: CorpusReport): object {
  return {
    categories: r.categories,
    totals: r.totals,
    falseCompletion: r.falseCompletion,
    stuck: r.stuck,
    bestOutput: r.bestOutput,
    notAsLabelled: r.scenarios.filter((o) => !o.ok).map(describeFailure),
    scenarios: r.scenarios.length,
    durationMs: r.durationMs,
    concurrency: r.concurrency,
  };
}

function realFigures(r: RealReport): object {
  return {
    verifier: r.verifier,
    categories: r.categories,
    repos: r.repos,
    totals: r.totals,
    caughtBy: r.caughtBy,
    accepted: r.scenarios.filter((o) => o.positive && o.verdict === 'accepted').map((o) => o.id),
    notAsLabelled: r.scenarios.filter((o) => !o.ok).map(describeRealFailure),
    scenarios: r.scenarios.map((o) => ({
      id: o.id,
      repo: o.repo,
      category: o.category,
      positive: o.positive,
      expected: o.expectedVerdict,
      verdict: o.verdict,
      caughtBy: o.caughtBy,
      checkPassed: o.checkPassed,
      types: o.types,
      verificationMs: o.verification?.ran ? o.verification.durationMs : undefined,
      checkMs: o.checkMs,
      error: o.error?.split('\n')[0],
    })),
    durationMs: r.durationMs,
    concurrency: r.concurrency,
  };
}

/** Both corpora side by side and summed: a positive counts when it was caught (synthetic: its expected findings). */
function together(synthetic: CorpusReport, real: RealReport): { rows: string[][]; totals: object } {
  const s = synthetic.totals;
  const r = real.totals;
  const pos = s.positives + r.positives;
  const caught = s.detected + r.caught;
  const neg = s.negatives + r.negatives;
  const fp = s.falsePositives + r.falsePositives;
  const pct = (a: number, b: number): string => (b ? `${((a / b) * 100).toFixed(1)}%` : '-');
  const row = (name: string, p: number, c: number, n: number, f: number): string[] => [
    name,
    String(p),
    String(c),
    pct(c, p),
    String(n),
    String(f),
    pct(f, n),
  ];
  return {
    rows: [
      ['set', 'pos', 'caught', 'recall', 'neg', 'FP', 'FP rate'],
      row('synthetic (detection pass)', s.positives, s.detected, s.negatives, s.falsePositives),
      row(`real repos (${real.verifier.split(' ')[0]})`, r.positives, r.caught, r.negatives, r.falsePositives),
      row('together', pos, caught, neg, fp),
    ],
    totals: { positives: pos, caught, recall: pos ? caught / pos : 1, negatives: neg, falsePositives: fp },
  };
}

interface VerifyCostFigures {
  files: number;
  runs: number;
  checkMs: { p50: number; p95: number; max: number };
  verifyMs: { p50: number; p95: number; max: number };
  /** verify / check, and verify - check (the tree's cost). */
  ratio: { p50: number; p95: number };
  overheadMs: { p50: number; p95: number };
  /** Where the verification's time goes: the tree (build + remove), the check in it, the rest (classification). */
  breakdownMs: { tree: number; checkInTree: number; rest: number };
  /** The budget: factor x check p50 + tree allowance, against verify p50 (and p95 against the check's p95). */
  budgetMs: { p50: number; p95: number };
  verdict: { p50WithinBudget: boolean; p95WithinBudget: boolean };
}

/** The repository's check in the cost bench: reads every source file, as a type-check or a test run would. */
const checkJs = (files: number): string => `const fs = require('node:fs');
const path = require('node:path');
let n = 0;
for (const d of fs.readdirSync('.')) {
  if (!d.startsWith('pkg')) continue;
  for (const f of fs.readdirSync(d)) if (/^export const v\\d+ = \\d+;/.test(fs.readFileSync(path.join(d, f), 'utf8'))) n++;
}
const t = fs.readFileSync('test/pkg.test.ts', 'utf8');
if (!t.includes('expect(1).toBe(1)')) throw new Error('test/pkg.test.ts lost its assertion');
if (n < ${files}) throw new Error('only ' + n + ' source files');
console.log(n + ' files checked');
`;

/**
 * The verification run against the check on the same FILES-file git repo: per round the agent edits 4 source files
 * and the protected test file (so the tree must be built and the check re-run there), then the check runs in the
 * workspace and the verification in its tree (order alternating).
 */
async function verifyCostBench(verifier: Verifier, plain = false): Promise<VerifyCostFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-verify-'));
  try {
    generateRepo(dir, FILES);
    fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'test', 'check.js'), checkJs(FILES));
    fs.writeFileSync(
      path.join(dir, TEST_FILE),
      "describe('pkg', () => {\n  it('loads', () => {\n    expect(1).toBe(1);\n  });\n});\n",
    );
    fs.appendFileSync(path.join(dir, '.git', 'info', 'exclude'), '\n.ralph/\n');
    await execa('git', ['add', '-A'], { cwd: dir });
    await execa('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'tests'], { cwd: dir });
    // The plain-folder path: the same files without git (checkpoints are archives, the tree comes from them).
    if (plain) fs.rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    const stateDir = path.join(dir, '.ralph');
    const loopId = 'bench-verify';
    const command = 'node test/check.js';
    const task = 'Add functions to the packages.';
    const scenario = { id: 'verify-cost' } as Parameters<Verifier['verify']>[0]['scenario'];
    await verifier.baseline({ scenario, workspace: dir, stateDir, loopId, task, command });
    const check: number[] = [];
    const verify: number[] = [];
    const tree: number[] = [];
    const inTree: number[] = [];
    const rest: number[] = [];
    for (let n = 1; n <= VERIFY_RUNS + 1; n++) {
      agentEdit(dir, n);
      fs.appendFileSync(path.join(dir, TEST_FILE), `// round ${n}\n`);
      await createCheckpoint({ workspace: dir, stateDir, loopId, label: postLabel(n) });
      const runVerify = async (): Promise<number> => {
        const t0 = process.hrtime.bigint();
        const v = await verifier.verify({
          scenario,
          workspace: dir,
          stateDir,
          loopId,
          iteration: n,
          task,
          command,
          post: postLabel(n),
        });
        if (!v.ran) throw new Error('the verification tree was not built although a protected file changed');
        const ms = since(t0);
        if (n > 1) {
          tree.push(v.treeMs ?? 0);
          inTree.push(v.checkMs ?? 0);
          rest.push(ms - (v.treeMs ?? 0) - (v.checkMs ?? 0));
        }
        return ms;
      };
      const runChk = async (): Promise<number> => {
        const c = await runCheck(command, dir);
        if (!c.passed) throw new Error(`the bench's check failed: ${c.output.slice(-500)}`);
        return c.durationMs;
      };
      const first = n % 2 === 0;
      const v1 = first ? await runVerify() : undefined;
      const c = await runChk();
      const v2 = first ? undefined : await runVerify();
      if (n === 1) continue;
      check.push(c);
      verify.push((v1 ?? v2)!);
    }
    const chk = summary(check);
    const ver = summary(verify);
    const budget = (c: number): number => +(VERIFY_TARGET.factor * c + VERIFY_TARGET.treeMs).toFixed(1);
    return {
      files: FILES,
      runs: VERIFY_RUNS,
      checkMs: chk,
      verifyMs: ver,
      ratio: { p50: +(ver.p50 / chk.p50).toFixed(2), p95: +(ver.p95 / chk.p95).toFixed(2) },
      overheadMs: { p50: +(ver.p50 - chk.p50).toFixed(1), p95: +(ver.p95 - chk.p95).toFixed(1) },
      breakdownMs: {
        tree: summary(tree).p50,
        checkInTree: summary(inTree).p50,
        rest: summary(rest).p50,
      },
      budgetMs: { p50: budget(chk.p50), p95: budget(chk.p95) },
      verdict: { p50WithinBudget: ver.p50 <= budget(chk.p50), p95WithinBudget: ver.p95 <= budget(chk.p95) },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The parts of the bench to run (BENCH_SECTIONS, comma-separated; default all). */
const Sections = ['synthetic', 'real', 'repo', 'verify'] as const;
type Section = (typeof Sections)[number];

function sections(): Set<Section> {
  const raw = process.env.BENCH_SECTIONS;
  if (!raw) return new Set(Sections);
  const asked = raw.split(',').map((s) => s.trim());
  const bad = asked.filter((s) => !(Sections as readonly string[]).includes(s));
  if (bad.length) throw new Error(`BENCH_SECTIONS: unknown ${bad.join(', ')}; use some of ${Sections.join(', ')}`);
  return new Set(asked as Section[]);
}

/** The figures of an earlier run, so a partial run (BENCH_SECTIONS) updates only what it measured. */
function previous(): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(path.join(packageRoot(), 'bench', 'results', 'detection.json'), 'utf8'));
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  const run = sections();
  const out: Record<string, unknown> = run.size === Sections.length ? {} : previous();
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  const verdicts: Verdicts = {};
  // Each section carries the date it was measured: a partial run (BENCH_SECTIONS) leaves the others' dates alone.
  const now = new Date().toISOString();
  const measuredAt: Record<string, string> = {
    ...((out.measuredAt as Record<string, string> | undefined) ?? {}),
  };
  // BENCH_NO_VERIFICATION=1 judges the real repos as the loop did before issue 10: detection pass + check only.
  const verifier = process.env.BENCH_NO_VERIFICATION ? undefined : mechanismVerifier();

  let corpus: CorpusReport | undefined;
  if (run.has('synthetic')) {
    corpus = await runCorpus({ filter: process.env.BENCH_FILTER, concurrency: CONCURRENCY });
    process.stdout.write(`Laziness corpus\n${formatReport(corpus)}\n\n`);
    out.corpus = corpusFigures(corpus);
    measuredAt.corpus = now;
    verdicts.corpusRecall = corpus.totals.recall >= 0.98;
    verdicts.corpusFpRate = corpus.totals.fpRate <= 0.02;
    verdicts.falseCompletionRecall = corpus.falseCompletion.recall >= 1;
    verdicts.stuckWithin4 = corpus.stuck.caught === corpus.stuck.positives && (corpus.stuck.maxCaughtAt ?? 0) <= 4;
    verdicts.bestOutputRegret = corpus.bestOutput.regret === 0;
  }

  if (run.has('real')) {
    const real = await runRealCorpus({
      filter: process.env.BENCH_REAL_FILTER,
      concurrency: REAL_CONCURRENCY,
      verifier,
    });
    process.stdout.write(`Real-repository corpus\n${formatRealReport(real)}\n\n`);
    out.realCorpus = realFigures(real);
    measuredAt.realCorpus = now;
    verdicts.realRecall = real.totals.recall >= 1;
    verdicts.realFalsePositives = real.totals.falsePositives === 0;
    if (corpus) {
      const both = together(corpus, real);
      process.stdout.write(`Both corpora\n${table(both.rows)}\n\n`);
      out.together = both.totals;
    }
  }

  if (run.has('repo')) {
    const repo = await repoBench();
    process.stdout.write(
      [
        `Detection pass on a ${repo.files}-file git repo, ${repo.runs} rounds of 5 edited files (one a test file)`,
        `  detection (inspectIteration + afterIteration) p50 ${repo.detectionMs.p50} ms  p95 ${repo.detectionMs.p95} ms  ` +
          `(${mark(repo.verdict.p95UnderTarget)} p95 < ${TARGET.p95Ms} ms)`,
        `  inspectIteration alone                      p50 ${repo.inspectIterationMs.p50} ms  p95 ${repo.inspectIterationMs.p95} ms`,
        `  git status --porcelain                      p50 ${repo.gitStatusMs.p50} ms  p95 ${repo.gitStatusMs.p95} ms`,
        `  ratio detection / git status                p50 ${repo.ratio.p50}x  p95 ${repo.ratio.p95}x  ` +
          `(${mark(repo.verdict.withinGitStatusRatio)} p95 <= ${TARGET.vsGitStatus}x)`,
        `  pre-run checkpoint (not part of detection)  p50 ${repo.preCheckpointMs.p50} ms  p95 ${repo.preCheckpointMs.p95} ms`,
        `  findings over the rounds: ${JSON.stringify(repo.findings)}`,
      ].join('\n') + '\n',
    );
    out.repo = repo;
    measuredAt.repo = now;
    verdicts.repoDetectionP95 = repo.verdict.p95UnderTarget;
    verdicts.repoVsGitStatus = repo.verdict.withinGitStatusRatio;
  }

  if (run.has('verify') && verifier) {
    for (const plain of [false, true]) {
      const cost = await verifyCostBench(verifier, plain);
      const kind = plain ? 'plain-folder' : 'git';
      process.stdout.write(
        [
          `Verification run on a ${cost.files}-file ${kind} workspace, ${cost.runs} rounds (a protected test file changed each round)`,
          `  check in the workspace        p50 ${cost.checkMs.p50} ms  p95 ${cost.checkMs.p95} ms`,
          `  verification (tree + check)   p50 ${cost.verifyMs.p50} ms  p95 ${cost.verifyMs.p95} ms  ` +
            `(${mark(cost.verdict.p50WithinBudget)} p50 <= ${cost.budgetMs.p50} ms, ` +
            `${mark(cost.verdict.p95WithinBudget)} p95 <= ${cost.budgetMs.p95} ms: ${VERIFY_TARGET.factor}x check + ${VERIFY_TARGET.treeMs} ms)`,
          `  ratio verification / check    p50 ${cost.ratio.p50}x  p95 ${cost.ratio.p95}x; overhead p50 ${cost.overheadMs.p50} ms`,
          `  verification p50 breakdown    tree (swap in + back) ${cost.breakdownMs.tree} ms, check in the tree ` +
            `${cost.breakdownMs.checkInTree} ms, the rest (classification, diffs, detectors) ${cost.breakdownMs.rest} ms`,
        ].join('\n') + '\n',
      );
      const key = plain ? 'verificationPlain' : 'verification';
      out[key] = cost;
      measuredAt[key] = now;
      verdicts[`${key}P50`] = cost.verdict.p50WithinBudget;
      verdicts[`${key}P95`] = cost.verdict.p95WithinBudget;
    }
  }

  const file = writeResult('detection', {
    ...out,
    targets: {
      corpus: { recall: 0.98, fpRate: 0.02, falseCompletionRecall: 1, stuckWithin: 4, bestOutputRegret: 0 },
      repo: TARGET,
      realCorpus: { recall: 1, falsePositives: 0 },
      verification: VERIFY_TARGET,
    },
    machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)), node: process.version },
    measuredAt,
    // The whole file's date moves only with a full run.
    at: run.size === Sections.length ? now : (out.at ?? now),
  });
  process.stdout.write(`written to ${path.relative(process.cwd(), file)}\n`);
  finishBench('detection', verdicts, (l) => process.stdout.write(l + '\n'));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:detection failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
