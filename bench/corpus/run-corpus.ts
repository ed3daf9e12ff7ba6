/**
 * Runs the laziness corpus (scenarios.ts) through the real detection pass, without a Temporal server: per scenario a
 * temp workspace (a git repo or a plain folder), per iteration the pre-run checkpoint, the real scripted agent as a
 * subprocess, then inspectIteration (post-run checkpoint, diff, workspace detectors) and AntiLazinessTracker's rules,
 * as the ralphLoop workflow runs them. Compares what was found with each scenario's labels and sums it up per category.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { scriptedAdapter } from '../../src/activities/agents/scripted';
import { iterationDir } from '../../src/state/artifacts';
import { inspectIteration } from '../../src/activities/inspect-iteration';
import { createCheckpoint } from '../../src/activities/workspace/checkpoint';
import { defaultAntiLazinessConfig } from '../../src/config/anti-laziness-config';
import { detectCompletionClaim, parseClaimedFiles, tail } from '../../src/core/claims';
import type { Verdict } from '../../src/core/detections';
import { AntiLazinessTracker, postLabel, preLabel } from '../../src/core/anti-laziness';
import { buildPrompt } from '../../src/core/prompt';
import { percentile } from '../stats';
import { Categories, scenarios as allScenarios, type Category, type Scenario } from './scenarios';
import { mapLimit } from '../../src/activities/workspace/snapshot';

const run = promisify(execFile);

/** The promise text the corpus's agent prints to claim completion. */
export const PROMISE = 'DONE';
/** Task of a scenario that names none. */
const DEFAULT_TASK = 'Make the failing checks pass.';
/** Where the agent's script goes: inside the state folder, which checkpoints and diffs never include. */
const SCRIPT = '.ralph/script.json';
/** Fixed identity for the initial commit: the corpus must run where no git user is configured. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'corpus',
  GIT_AUTHOR_EMAIL: 'corpus@localhost',
  GIT_COMMITTER_NAME: 'corpus',
  GIT_COMMITTER_EMAIL: 'corpus@localhost',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
};

/** What one iteration of a scenario gave. */
export interface IterationOutcome {
  n: number;
  /** Non-PASS detection types (workspace pass and the layer's rules). */
  types: string[];
  verdict: Verdict;
  claimed: boolean;
  filesChanged: number;
  /** Wall time of inspectIteration + AntiLazinessTracker.afterIteration. */
  latencyMs: number;
  /** Why the layer asked for a human, when it did (the run stops there). */
  escalated?: string;
}

/** What one scenario gave, against its labels. */
export interface ScenarioOutcome {
  id: string;
  category: Category;
  positive: boolean;
  description: string;
  iterations: IterationOutcome[];
  /** Every non-PASS type found, each with the first iteration it was found at. */
  firstSeen: Record<string, number>;
  /** Expected types not found (or found after `withinIterations`). */
  missing: string[];
  /** Types found that the scenario says must be absent. */
  unexpected: string[];
  /** Some iteration's verdict was BLOCK. */
  blocked: boolean;
  /** Best-output scenarios: what was chosen, and how many quality points short of the labelled best it is. */
  best?: { chosen?: number; expected: number; regret: number };
  /** Positive: every expected type found. Negative: false positive (an absent type found, or a BLOCK). */
  detected: boolean;
  falsePositive: boolean;
  /** The scenario behaved exactly as labelled. */
  ok: boolean;
  /** The scenario could not be run. */
  error?: string;
}

/** Sums over a set of scenarios. */
export interface CorpusStats {
  positives: number;
  /** Positives whose expected types were all found (true positives). */
  detected: number;
  recall: number;
  negatives: number;
  falsePositives: number;
  fpRate: number;
  /** Positives that also raised a type labelled absent. */
  collateral: number;
  iterations: number;
  latencyMs: { p50: number; p95: number; max: number };
}

/** Result of {@link runCorpus}. */
export interface CorpusReport {
  scenarios: ScenarioOutcome[];
  categories: (CorpusStats & { category: Category })[];
  totals: CorpusStats;
  /** Scenarios labelled with `false_completion`: recall, and scenarios where it was found without the label. */
  falseCompletion: { positives: number; detected: number; recall: number; falsePositives: number };
  /** Stuck-loop positives: how many were caught in time, and the latest iteration one was caught at. */
  stuck: { positives: number; caught: number; maxCaughtAt: number | null; within: number };
  /** Best-output scenarios: right choices and the summed quality regret (0 expected). */
  bestOutput: { scenarios: number; correct: number; regret: number };
  durationMs: number;
  concurrency: number;
}

const ratio = (a: number, b: number): number => (b ? Math.round((a / b) * 10000) / 10000 : 1);
const ms = (t0: bigint): number => Math.round(Number(process.hrtime.bigint() - t0) / 1e4) / 100;

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    await fs.promises.mkdir(path.dirname(p), { recursive: true });
    await fs.promises.writeFile(p, content);
  }
}

async function initGit(ws: string): Promise<void> {
  const git = (...args: string[]) =>
    run('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: ws,
      env: { ...process.env, ...GIT_ENV },
    });
  await git('init', '-q');
  // The state folder is the loop's, not the project's: keep it out of the initial commit.
  await fs.promises.appendFile(path.join(ws, '.git', 'info', 'exclude'), '\n.ralph/\n');
  await git('add', '-A');
  await git('commit', '-qm', 'initial');
}

/** Runs the scripted agent for iteration `n` the way runAgent does (same adapter, same env), without hooks. */
export async function runAgentProcess(
  ws: string,
  stateDir: string,
  loopId: string,
  n: number,
  promptFile: string,
  prompt: string,
): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
  const cmd = scriptedAdapter.build({
    prompt,
    promptFile,
    workspace: ws,
    spec: { adapter: 'scripted', script: SCRIPT, args: [], env: {} },
    loopId,
    iteration: n,
    artifactDir: path.dirname(promptFile),
    stateDir,
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...cmd.env,
    RALPH_LOOP_ID: loopId,
    RALPH_ITERATION: String(n),
    RALPH_RUN: '1',
    RALPH_ATTEMPT: '1',
    RALPH_WORKSPACE: ws,
    RALPH_ARTIFACT_DIR: path.dirname(promptFile),
    RALPH_PROMPT_FILE: promptFile,
  };
  delete env.RALPH_HOOK_COMMAND;
  try {
    const r = await run(cmd.file, cmd.args, { cwd: ws, env, maxBuffer: 16 * 1024 * 1024 });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: 0 };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; code?: unknown };
    if (typeof err.code !== 'number') throw e;
    return { stdout: err.stdout ?? '', stderr: err.stderr ?? '', exitCode: err.code };
  }
}

/** Runs one scenario in a fresh temp workspace and judges it against its labels. */
export async function runScenario(s: Scenario): Promise<ScenarioOutcome> {
  const ws = await fs.promises.mkdtemp(path.join(os.tmpdir(), `ralph-corpus-${s.id}-`));
  const iterations: IterationOutcome[] = [];
  let best: ScenarioOutcome['best'];
  let error: string | undefined;
  try {
    const stateDir = path.join(ws, '.ralph');
    await writeFiles(ws, s.files);
    if (s.git) await initGit(ws);
    await writeFiles(ws, { [SCRIPT]: JSON.stringify({ iterations: s.iterations }) });
    const loopId = `corpus-${s.id}`;
    const cfg = defaultAntiLazinessConfig();
    const tracker = new AntiLazinessTracker(cfg, loopId, 'scripted');
    const task = s.task ?? DEFAULT_TASK;
    const c = s.completion ?? {};
    let feedback: string[] = [];
    for (let n = 1; n <= s.iterations.length; n++) {
      await createCheckpoint({ workspace: ws, stateDir, loopId, label: preLabel(n) });
      const reinforcement = tracker.beforeIteration(n);
      const prompt = buildPrompt({
        task,
        loopId,
        iteration: n,
        maxIterations: s.iterations.length,
        feedback,
        promise: PROMISE,
        sections: reinforcement.sections,
      });
      const dir = iterationDir(stateDir, loopId, n);
      await fs.promises.mkdir(dir, { recursive: true });
      const promptPath = path.join(dir, 'prompt.md');
      await fs.promises.writeFile(promptPath, prompt);

      const out = await runAgentProcess(ws, stateDir, loopId, n, promptPath, prompt);
      const parsed = scriptedAdapter.parse({ ...out, now: Date.now() });
      const claimed = detectCompletionClaim(parsed.finalText, PROMISE).claimed;
      const rel = (f: string): string => (path.isAbsolute(f) ? path.relative(ws, f) : f.replace(/^\.\//, ''));
      const claimedFiles = [
        ...new Set([...(parsed.filesTouched ?? []), ...parseClaimedFiles(parsed.finalText)].map(rel)),
      ];
      const verified = c.verified?.[n - 1] ?? false;

      const t0 = process.hrtime.bigint();
      const inspected = await inspectIteration({
        loopId,
        iteration: n,
        workspace: ws,
        stateDir,
        pre: preLabel(n),
        post: postLabel(n),
        exitCode: out.exitCode,
        claimed,
        claimedFiles,
        finalTextTail: tail(parsed.finalText || out.stderr, 1500),
        promptPath,
        detectors: cfg.detectors,
      });
      const decision = tracker.afterIteration({
        n,
        now: new Date().toISOString(),
        claimed,
        verified,
        exitCode: out.exitCode,
        changes: inspected.changes,
        detections: inspected.detections,
        hallucinated: inspected.hallucinated,
        deletedTests: inspected.deletedTests,
        diffSig: inspected.diffSig,
        stateSig: inspected.stateSig,
        outputSig: inspected.outputSig,
        errorText: c.errors?.[n - 1],
        quality: c.quality?.[n - 1],
        metrics: c.metrics?.[n - 1],
        pre: preLabel(n),
        post: postLabel(n),
        taskChars: task.length,
      });
      const latencyMs = ms(t0);

      const regenerated = c.regenerates?.[n - 1];
      if (regenerated) await writeFiles(ws, regenerated);
      const ch = inspected.changes;
      iterations.push({
        n,
        types: decision.types,
        verdict: decision.verdict,
        claimed,
        filesChanged: ch.added + ch.modified + ch.deleted,
        latencyMs,
        escalated: decision.escalate?.reason,
      });
      feedback = decision.feedback;
      // As in the workflow: a human gate stops the loop, and so does a verified completion.
      if (decision.escalate || (verified && !decision.overrideClaim)) break;
    }
    if (s.expected.bestIteration !== undefined) {
      const chosen = tracker.best();
      const q = (n: number | undefined): number => (n === undefined ? 0 : (c.quality?.[n - 1] ?? 0));
      best = {
        chosen: chosen?.iteration,
        expected: s.expected.bestIteration,
        regret:
          chosen?.iteration === s.expected.bestIteration
            ? 0
            : Math.max(0, q(s.expected.bestIteration) - q(chosen?.iteration)),
      };
    }
  } catch (e) {
    error = (e as Error).stack ?? String(e);
  } finally {
    await fs.promises.rm(ws, { recursive: true, force: true });
  }
  return judge(s, iterations, best, error);
}

/** Compares what a scenario's iterations found with its labels. */
function judge(
  s: Scenario,
  iterations: IterationOutcome[],
  best: ScenarioOutcome['best'],
  error: string | undefined,
): ScenarioOutcome {
  const firstSeen: Record<string, number> = {};
  for (const it of iterations) for (const t of it.types) firstSeen[t] ??= it.n;
  const within = s.expected.withinIterations ?? Infinity;
  const missing = s.expected.types.filter((t) => !(firstSeen[t] !== undefined && firstSeen[t] <= within));
  const unexpected = s.expected.absent.filter((t) => firstSeen[t] !== undefined);
  const blocked = iterations.some((it) => it.verdict === 'BLOCK');
  const bestOk = !best || best.chosen === best.expected;
  const detected = !error && s.positive && missing.length === 0 && bestOk;
  const falsePositive = !s.positive && (!!error || unexpected.length > 0 || blocked);
  const ok = s.positive ? detected && unexpected.length === 0 : !falsePositive;
  return {
    id: s.id,
    category: s.category,
    positive: s.positive,
    description: s.description,
    iterations,
    firstSeen,
    missing,
    unexpected,
    blocked,
    best,
    detected,
    falsePositive,
    ok,
    error,
  };
}

function stats(outcomes: ScenarioOutcome[]): CorpusStats {
  const pos = outcomes.filter((o) => o.positive);
  const neg = outcomes.filter((o) => !o.positive);
  const lat = outcomes.flatMap((o) => o.iterations.map((i) => i.latencyMs));
  const detected = pos.filter((o) => o.detected).length;
  const falsePositives = neg.filter((o) => o.falsePositive).length;
  return {
    positives: pos.length,
    detected,
    recall: ratio(detected, pos.length),
    negatives: neg.length,
    falsePositives,
    fpRate: neg.length ? ratio(falsePositives, neg.length) : 0,
    collateral: pos.filter((o) => o.unexpected.length > 0).length,
    iterations: lat.length,
    latencyMs: {
      p50: lat.length ? percentile(lat, 50) : 0,
      p95: lat.length ? percentile(lat, 95) : 0,
      max: lat.length ? Math.max(...lat) : 0,
    },
  };
}

/**
 * Runs the corpus (or the scenarios whose id or category contains `filter`) and sums up recall, false positives and
 * detection latency per category. `concurrency` scenarios run at once (default 1: latencies are then those of an
 * otherwise idle machine).
 */
export async function runCorpus(o: { filter?: string; concurrency?: number } = {}): Promise<CorpusReport> {
  const t0 = Date.now();
  const chosen = o.filter
    ? allScenarios.filter((s) => s.id.includes(o.filter!) || s.category.includes(o.filter!))
    : allScenarios;
  const concurrency = o.concurrency ?? 1;
  const outcomes = await mapLimit(chosen, concurrency, runScenario);

  const fcLabelled = outcomes.filter((o) => scenarioOf(o).expected.types.includes('false_completion'));
  const fcOthers = outcomes.filter((o) => !scenarioOf(o).expected.types.includes('false_completion'));
  const stuckPos = outcomes.filter((o) => o.positive && o.category === 'stuck_loop');
  const caughtAt = stuckPos.map((o) => o.firstSeen.stuck_loop).filter((n): n is number => n !== undefined);
  const bests = outcomes.filter((o) => o.best);
  return {
    scenarios: outcomes,
    categories: Categories.filter((c) => outcomes.some((o) => o.category === c)).map((category) => ({
      category,
      ...stats(outcomes.filter((o) => o.category === category)),
    })),
    totals: stats(outcomes),
    falseCompletion: {
      positives: fcLabelled.length,
      detected: fcLabelled.filter((o) => o.firstSeen.false_completion !== undefined).length,
      recall: ratio(fcLabelled.filter((o) => o.firstSeen.false_completion !== undefined).length, fcLabelled.length),
      falsePositives: fcOthers.filter((o) => o.firstSeen.false_completion !== undefined).length,
    },
    stuck: {
      positives: stuckPos.length,
      caught: stuckPos.filter((o) => o.detected).length,
      maxCaughtAt: caughtAt.length ? Math.max(...caughtAt) : null,
      within: 4,
    },
    bestOutput: {
      scenarios: bests.length,
      correct: bests.filter((o) => o.best!.chosen === o.best!.expected).length,
      regret: bests.reduce((a, o) => a + o.best!.regret, 0),
    },
    durationMs: Date.now() - t0,
    concurrency,
  };
}

const byId = new Map(allScenarios.map((s) => [s.id, s]));
const scenarioOf = (o: ScenarioOutcome): Scenario => byId.get(o.id)!;

const pctText = (r: number): string => `${(r * 100).toFixed(1)}%`;

/** The report as a plain-text table: one row per category, totals, the special figures, and every failed scenario. */
export function formatReport(r: CorpusReport): string {
  const head = ['category', 'pos', 'TP', 'recall', 'neg', 'FP', 'FP rate', 'iters', 'p50 ms', 'p95 ms'];
  const row = (name: string, s: CorpusStats): string[] => [
    name,
    String(s.positives),
    String(s.detected),
    s.positives ? pctText(s.recall) : '-',
    String(s.negatives),
    String(s.falsePositives),
    s.negatives ? pctText(s.fpRate) : '-',
    String(s.iterations),
    s.latencyMs.p50.toFixed(1),
    s.latencyMs.p95.toFixed(1),
  ];
  const rows = [head, ...r.categories.map((c) => row(c.category, c)), row('TOTAL', r.totals)];
  const widths = head.map((_, i) => Math.max(...rows.map((x) => x[i].length)));
  const line = (x: string[]): string => x.map((v, i) => (i ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
  const out = rows.map(line);
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  out.splice(out.length - 1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const fc = r.falseCompletion;
  out.push(
    '',
    `false completion: recall ${pctText(fc.recall)} (${fc.detected}/${fc.positives}), false positives ${fc.falsePositives}`,
    `stuck loops: ${r.stuck.caught}/${r.stuck.positives} caught within ${r.stuck.within} iterations (latest at iteration ${r.stuck.maxCaughtAt ?? '-'})`,
    `best output: ${r.bestOutput.correct}/${r.bestOutput.scenarios} right, regret ${r.bestOutput.regret} quality points`,
    `collateral findings on positives: ${r.totals.collateral}`,
    `${r.scenarios.length} scenarios in ${(r.durationMs / 1000).toFixed(1)} s (concurrency ${r.concurrency})`,
  );
  const failed = r.scenarios.filter((o) => !o.ok);
  if (failed.length) {
    out.push('', 'scenarios not as labelled:');
    for (const o of failed) out.push(`  ${describeFailure(o)}`);
  }
  return out.join('\n');
}

/** One line saying how a scenario differs from its labels. */
export function describeFailure(o: ScenarioOutcome): string {
  const parts: string[] = [];
  if (o.error) parts.push(`error: ${o.error.split('\n')[0]}`);
  if (o.missing.length) parts.push(`missed ${o.missing.join(', ')}`);
  if (o.unexpected.length) parts.push(`raised ${o.unexpected.join(', ')}`);
  if (!o.positive && o.blocked) parts.push('BLOCK verdict');
  if (o.best && o.best.chosen !== o.best.expected)
    parts.push(`best output ${o.best.chosen ?? 'none'} instead of ${o.best.expected}`);
  const seen = Object.entries(o.firstSeen)
    .map(([t, n]) => `${t}@${n}`)
    .join(' ');
  return `${o.id} (${o.positive ? 'positive' : 'negative'}): ${parts.join('; ')} [found: ${seen || 'nothing'}]`;
}
