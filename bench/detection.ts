/**
 * npm run bench:detection — how well and how fast the anti-laziness layer detects.
 *
 * 1. The laziness corpus (bench/corpus): every scenario run by the real scripted agent in a temp workspace and
 *    inspected by the real detection pass. Per category: recall on positives, false-positive rate on hard negatives,
 *    detection latency p50/p95 (inspectIteration + PersistenceTracker.afterIteration per iteration); false completion,
 *    stuck-loop and best-output figures.
 * 2. A detection pass on a generated 10k-file git repo (bench/snapshot.ts's generator): N rounds of [pre-run checkpoint,
 *    agent-like edit of 5 files including a test file, detection pass] against `git status --porcelain` on the same
 *    repo in the same rounds (their order alternates). Targets: detection p95 < 300 ms and <= 2x git status.
 *
 * Figures go to bench/results/detection.json. Env: BENCH_FILES (10000), BENCH_RUNS (30), BENCH_CONCURRENCY (1:
 * corpus scenarios at once), BENCH_FILTER (corpus scenarios whose id or category contains it), BENCH_PART=repo (the
 * 10k-file pass only, to bench/results/detection-repo.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { inspectIteration } from '../src/activities/inspect-iteration';
import { createCheckpoint } from '../src/activities/workspace/checkpoint';
import { defaultPersistenceConfig } from '../src/config/persistence-config';
import { PersistenceTracker, postLabel, preLabel } from '../src/core/persistence';
import { describeFailure, formatReport, runCorpus, type CorpusReport } from './corpus/run-corpus';
import { generateRepo } from './snapshot';
import { percentile, writeResult } from './stats';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
/** Targets of the detection pass on the 10k-file repo. */
const TARGET = { p95Ms: 300, vsGitStatus: 2 };

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
    const cfg = defaultPersistenceConfig();
    const tracker = new PersistenceTracker(cfg, loopId, 'bench');
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

async function main(): Promise<void> {
  // BENCH_PART=repo: only the 10k-file pass, written to detection-repo.json (detection.json keeps the corpus).
  const repoOnly = process.env.BENCH_PART === 'repo';
  const corpus = repoOnly ? undefined : await runCorpus({ filter: process.env.BENCH_FILTER, concurrency: CONCURRENCY });
  if (corpus) process.stdout.write(`Laziness corpus\n${formatReport(corpus)}\n\n`);

  const repo = await repoBench();
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  process.stdout.write(
    [
      `Detection pass on a ${repo.files}-file git repo, ${repo.runs} rounds of 5 edited files (one a test file)`,
      `  detection (inspectIteration + afterIteration) p50 ${repo.detectionMs.p50} ms  p95 ${repo.detectionMs.p95} ms  ` +
        `(${mark(repo.verdict.p95UnderTarget)} p95 < ${TARGET.p95Ms} ms)`,
      `  inspectIteration alone                      p50 ${repo.inspectIterationMs.p50} ms  p95 ${repo.inspectIterationMs.p95} ms`,
      `  git status --porcelain                      p50 ${repo.gitStatusMs.p50} ms  p95 ${repo.gitStatusMs.p95} ms`,
      `  ratio detection / git status                p50 ${repo.ratio.p50}x  p95 ${repo.ratio.p95}x  ` +
        `(${mark(repo.verdict.withinGitStatusRatio)} <= ${TARGET.vsGitStatus}x)`,
      `  pre-run checkpoint (not part of detection)  p50 ${repo.preCheckpointMs.p50} ms  p95 ${repo.preCheckpointMs.p95} ms`,
      `  findings over the rounds: ${JSON.stringify(repo.findings)}`,
    ].join('\n') + '\n',
  );
  const file = writeResult(repoOnly ? 'detection-repo' : 'detection', {
    ...(corpus ? { corpus: corpusFigures(corpus) } : {}),
    repo,
    targets: {
      corpus: { recall: 0.98, fpRate: 0.02, falseCompletionRecall: 1, stuckWithin: 4, bestOutputRegret: 0 },
      repo: TARGET,
    },
    machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)), node: process.version },
    at: new Date().toISOString(),
  });
  process.stdout.write(`written to ${path.relative(process.cwd(), file)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:detection failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
