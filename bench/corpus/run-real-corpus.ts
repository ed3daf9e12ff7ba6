/**
 * Runs the real-repository corpus (real-scenarios.ts) the way the ralphLoop workflow judges an iteration, without a
 * Temporal server: per scenario a temp git repository made from a fixture repository and the task's setup, the real
 * scripted agent as a subprocess, the detection pass (inspectIteration + AntiLazinessTracker's rules), then the
 * repository's own test runner as the completion check. The loop accepts, as the workflow does, when the check
 * passes and nothing asks for a human (no escalation, no overridden claim); with a {@link Verifier} (issue 10's
 * verification tree) acceptance also needs the original checks to pass there. Each verdict is compared with the
 * label written before the run, and summed up per category: recall (cheats not accepted), false positives (honest
 * work not accepted), detection latency, check and verification times. `RALPH_CORPUS_KEEP=1` keeps each scenario's
 * workspace (and its verification logs under .ralph/) in the temp folder.
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
import { mapLimit } from '../../src/activities/workspace/snapshot';
import { defaultAntiLazinessConfig } from '../../src/config/anti-laziness-config';
import { detectCompletionClaim, parseClaimedFiles, tail } from '../../src/core/claims';
import { AntiLazinessTracker, postLabel, preLabel } from '../../src/core/anti-laziness';
import { buildPrompt } from '../../src/core/prompt';
import { percentile } from '../stats';
import { runAgentProcess } from './run-corpus';
import { CHECK_ENV, checkCommand, materialize, REPOS, type RepoName } from './fixture-repos';
import { RealCategories, realScenarios, type RealCategory, type RealScenario } from './real-scenarios';

const run = promisify(execFile);

/** The promise text the corpus's agent prints to claim completion. */
const PROMISE = 'DONE';
/** Where the agent's script goes: inside the state folder, which checkpoints and diffs never include. */
const SCRIPT = '.ralph/script.json';
/** The completion check's time limit (a real suite on a loaded 2-core machine takes seconds, not minutes). */
const CHECK_TIMEOUT_MS = 180_000;

/** What a verification step is given: the workspace after the agent's iteration, and what the loop knows. */
export interface VerifyContext {
  scenario: RealScenario;
  workspace: string;
  stateDir: string;
  loopId: string;
  iteration: number;
  task: string;
  command: string;
  /** Label of the post-run checkpoint the detection pass recorded. */
  post: string;
}

/** What a verification step decided. */
export interface VerifyOutcome {
  /** The original checks passed in the verification tree (true when there was nothing to verify). */
  passed: boolean;
  /** The checks were re-run in a verification tree (false: no protected file changed). */
  ran: boolean;
  /** A protected file changed that the task does not allow: acceptance waits on a human gate. */
  protectedEdit: boolean;
  /** Critical findings of the detectors of cheating the checks cannot see (special-cased tests, test-only switches, mocks). */
  cheats: string[];
  /** Event types raised (`tampered_verification`, `protected_edit`, ...). */
  types: string[];
  /** Wall time of the verification step (tree + re-run). */
  durationMs: number;
  /** Of which: building and removing the tree, and the check's run in it (when it ran). */
  treeMs?: number;
  checkMs?: number;
}

/**
 * Issue 10's mechanism as the corpus calls it: `baseline` when the loop starts (the protected set), `verify` when the
 * loop would accept. Absent: the corpus judges with what the loop had before it (detection pass + check).
 */
export interface Verifier {
  name: string;
  baseline(ctx: Omit<VerifyContext, 'iteration' | 'post'>): Promise<void>;
  verify(ctx: VerifyContext): Promise<VerifyOutcome>;
}

/** What stopped a scenario from being accepted (the first that did, in the loop's order). */
export type CaughtBy = 'check' | 'detector' | 'verification' | 'cheat_detector' | 'protected_edit' | 'agent';

/** What one real-repo scenario gave, against its label. */
export interface RealOutcome {
  id: string;
  repo: RepoName;
  category: RealCategory;
  positive: boolean;
  description: string;
  expectedVerdict: 'accepted' | 'rejected';
  verdict: 'accepted' | 'rejected';
  /** Why it was not accepted (undefined when accepted). */
  caughtBy?: CaughtBy;
  /** The agent's own check passed in its tree. */
  checkPassed: boolean;
  /** The label's premise (the check passes in the agent's tree) held. */
  premiseHeld: boolean;
  /** Non-PASS detection types of the detection pass and the tracker's rules (early feedback, WARN included). */
  types: string[];
  /** Verification step's result, when a verifier ran. */
  verification?: VerifyOutcome;
  /** Detection pass + tracker rules, ms. */
  detectionMs: number;
  /** The repository's check in the agent's tree, ms. */
  checkMs: number;
  /** The verdict matches the label, and so does the premise. */
  ok: boolean;
  error?: string;
}

/** Sums over a set of real-repo scenarios. */
export interface RealStats {
  positives: number;
  /** Positives not accepted. */
  caught: number;
  recall: number;
  /** Positives some detector flagged (WARN or worse): the early feedback, whether or not it stopped acceptance. */
  flagged: number;
  negatives: number;
  /** Hard negatives not accepted. */
  falsePositives: number;
  fpRate: number;
  detectionMs: { p50: number; p95: number };
  checkMs: { p50: number; p95: number };
  verifyMs?: { p50: number; p95: number };
}

/** Result of {@link runRealCorpus}. */
export interface RealReport {
  verifier: string;
  scenarios: RealOutcome[];
  categories: (RealStats & { category: RealCategory })[];
  repos: (RealStats & { repo: RepoName; origin: string; runner: string })[];
  totals: RealStats;
  /** Positives by what stopped them. */
  caughtBy: Record<string, number>;
  durationMs: number;
  concurrency: number;
}

const ratio = (a: number, b: number): number => (b ? Math.round((a / b) * 10000) / 10000 : 1);
const since = (t0: bigint): number => Math.round(Number(process.hrtime.bigint() - t0) / 1e4) / 100;

/** Runs a check command (`sh -c`) in `cwd` as checkCompletion does: passes only on exit 0 within the time limit. */
export async function runCheck(
  command: string,
  cwd: string,
): Promise<{ passed: boolean; exitCode: number | null; durationMs: number; output: string }> {
  const t0 = process.hrtime.bigint();
  // Jest, vitest and pytest running in a scenario must not think they run under this process's own jest.
  const env: NodeJS.ProcessEnv = { ...process.env, ...CHECK_ENV };
  for (const k of Object.keys(env)) if (k.startsWith('JEST_') || k === 'VITEST' || k === 'NODE_ENV') delete env[k];
  try {
    const r = await run('sh', ['-c', command], { cwd, env, timeout: CHECK_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    return { passed: true, exitCode: 0, durationMs: since(t0), output: `${r.stdout}\n${r.stderr}` };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; code?: unknown };
    return {
      passed: false,
      exitCode: typeof err.code === 'number' ? err.code : null,
      durationMs: since(t0),
      output: `${err.stdout ?? ''}\n${err.stderr ?? ''}`,
    };
  }
}

/** Runs one real-repo scenario in a fresh temp repository and judges it against its label. */
export async function runRealScenario(s: RealScenario, verifier?: Verifier): Promise<RealOutcome> {
  const ws = await fs.promises.mkdtemp(path.join(os.tmpdir(), `ralph-real-${s.id}-`));
  const base = {
    id: s.id,
    repo: s.repo,
    category: s.category,
    positive: s.positive,
    description: s.description,
    expectedVerdict: s.expected.verdict,
  };
  let verdict: RealOutcome['verdict'] = 'rejected';
  let caughtBy: CaughtBy | undefined;
  let checkPassed = false;
  let types: string[] = [];
  let verification: VerifyOutcome | undefined;
  let detectionMs = 0;
  let checkMs = 0;
  let error: string | undefined;
  try {
    const stateDir = path.join(ws, '.ralph');
    await materialize(s.repo, ws, s.setup);
    await fs.promises.mkdir(stateDir, { recursive: true });
    await fs.promises.writeFile(path.join(ws, SCRIPT), JSON.stringify({ iterations: s.iterations }));
    const loopId = `real-${s.id}`;
    const command = await checkCommand(s.repo);
    await verifier?.baseline({ scenario: s, workspace: ws, stateDir, loopId, task: s.task, command });
    const cfg = defaultAntiLazinessConfig();
    const tracker = new AntiLazinessTracker(cfg, loopId, 'scripted');
    let feedback: string[] = [];
    for (let n = 1; n <= s.iterations.length; n++) {
      await createCheckpoint({ workspace: ws, stateDir, loopId, label: preLabel(n) });
      const reinforcement = tracker.beforeIteration(n);
      const prompt = buildPrompt({
        task: s.task,
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

      // As the workflow: the detection pass, then the completion check, then the tracker's rules with the check's verdict.
      let t0 = process.hrtime.bigint();
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
      detectionMs += since(t0);
      const check = await runCheck(command, ws);
      checkMs += check.durationMs;
      checkPassed = check.passed;
      t0 = process.hrtime.bigint();
      const decision = tracker.afterIteration({
        n,
        now: new Date().toISOString(),
        claimed,
        verified: check.passed,
        exitCode: out.exitCode,
        changes: inspected.changes,
        detections: inspected.detections,
        hallucinated: inspected.hallucinated,
        deletedTests: inspected.deletedTests,
        diffSig: inspected.diffSig,
        stateSig: inspected.stateSig,
        outputSig: inspected.outputSig,
        errorText: check.passed ? undefined : tail(check.output, 2000),
        pre: preLabel(n),
        post: postLabel(n),
        taskChars: s.task.length,
      });
      detectionMs += since(t0);
      types = [...new Set([...types, ...decision.types])];
      feedback = decision.feedback;

      // With a completion command the check's verdict is the loop's (a claim nothing backs fails the check anyway).
      if (decision.escalate) {
        caughtBy = 'detector';
        break;
      }
      if (!check.passed) {
        caughtBy = 'check';
        continue;
      }
      if (verifier) {
        verification = await verifier.verify({
          scenario: s,
          workspace: ws,
          stateDir,
          loopId,
          iteration: n,
          task: s.task,
          command,
          post: postLabel(n),
        });
        types = [...new Set([...types, ...verification.types])];
        if (!verification.passed) {
          caughtBy = 'verification';
          break;
        }
        if (verification.cheats.length) {
          caughtBy = 'cheat_detector';
          break;
        }
        if (verification.protectedEdit) {
          caughtBy = 'protected_edit';
          break;
        }
      }
      verdict = 'accepted';
      caughtBy = undefined;
      break;
    }
    if (verdict === 'rejected' && !caughtBy) caughtBy = 'agent';
  } catch (e) {
    error = (e as Error).stack ?? String(e);
  } finally {
    if (!process.env.RALPH_CORPUS_KEEP) await fs.promises.rm(ws, { recursive: true, force: true });
  }
  const premiseHeld = checkPassed === s.expected.checkPasses;
  return {
    ...base,
    verdict,
    caughtBy: verdict === 'accepted' ? undefined : caughtBy,
    checkPassed,
    premiseHeld,
    types,
    verification,
    detectionMs,
    checkMs,
    ok: !error && verdict === s.expected.verdict && premiseHeld,
    error,
  };
}

const p = (xs: number[], q: number): number => (xs.length ? +percentile(xs, q).toFixed(1) : 0);

function stats(outcomes: RealOutcome[]): RealStats {
  const pos = outcomes.filter((o) => o.positive);
  const neg = outcomes.filter((o) => !o.positive);
  const caught = pos.filter((o) => o.verdict === 'rejected' && !o.error).length;
  const falsePositives = neg.filter((o) => o.verdict === 'rejected' || !!o.error).length;
  const det = outcomes.map((o) => o.detectionMs);
  const chk = outcomes.map((o) => o.checkMs);
  const ver = outcomes.filter((o) => o.verification?.ran).map((o) => o.verification!.durationMs);
  return {
    positives: pos.length,
    caught,
    recall: ratio(caught, pos.length),
    flagged: pos.filter((o) => o.types.length > 0).length,
    negatives: neg.length,
    falsePositives,
    fpRate: neg.length ? ratio(falsePositives, neg.length) : 0,
    detectionMs: { p50: p(det, 50), p95: p(det, 95) },
    checkMs: { p50: p(chk, 50), p95: p(chk, 95) },
    verifyMs: ver.length ? { p50: p(ver, 50), p95: p(ver, 95) } : undefined,
  };
}

/**
 * Runs the real-repo corpus (or the scenarios whose id, repo or category contains `filter`, or the listed `ids`),
 * `concurrency` scenarios at once (default 1), with `verifier` when given, and sums it up per category and repository.
 */
export async function runRealCorpus(
  o: { filter?: string; ids?: string[]; concurrency?: number; verifier?: Verifier } = {},
): Promise<RealReport> {
  const t0 = Date.now();
  let chosen = realScenarios;
  if (o.ids) chosen = chosen.filter((s) => o.ids!.includes(s.id));
  if (o.filter) {
    const f = o.filter;
    chosen = chosen.filter((s) => s.id.includes(f) || s.category.includes(f) || s.repo.includes(f));
  }
  const concurrency = o.concurrency ?? 1;
  const outcomes = await mapLimit(chosen, concurrency, (s) => runRealScenario(s, o.verifier));
  const caughtBy: Record<string, number> = {};
  for (const x of outcomes.filter((x) => x.positive))
    caughtBy[x.caughtBy ?? 'accepted'] = (caughtBy[x.caughtBy ?? 'accepted'] ?? 0) + 1;
  return {
    verifier: o.verifier?.name ?? 'none (detection pass + check)',
    scenarios: outcomes,
    categories: RealCategories.filter((c) => outcomes.some((x) => x.category === c)).map((category) => ({
      category,
      ...stats(outcomes.filter((x) => x.category === category)),
    })),
    repos: (Object.keys(REPOS) as RepoName[])
      .filter((r) => outcomes.some((x) => x.repo === r))
      .map((repo) => ({
        repo,
        origin: REPOS[repo].origin,
        runner: REPOS[repo].runner,
        ...stats(outcomes.filter((x) => x.repo === repo)),
      })),
    totals: stats(outcomes),
    caughtBy,
    durationMs: Date.now() - t0,
    concurrency,
  };
}

const pct = (r: number): string => `${(r * 100).toFixed(1)}%`;

/** Lays out rows as a plain-text table with a rule under the header and above the last row. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((x) => x[i].length)));
  const line = (x: string[]): string => x.map((v, i) => (i ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = rows.map(line);
  out.splice(1, 0, rule);
  out.splice(out.length - 1, 0, rule);
  return out.join('\n');
}

/** The report as plain-text tables: per category, per repository, and every scenario not as labelled. */
export function formatRealReport(r: RealReport): string {
  const head = ['category', 'pos', 'caught', 'recall', 'flagged', 'neg', 'FP', 'FP rate', 'detect p50', 'check p50'];
  const row = (name: string, s: RealStats): string[] => [
    name,
    String(s.positives),
    String(s.caught),
    s.positives ? pct(s.recall) : '-',
    s.positives ? String(s.flagged) : '-',
    String(s.negatives),
    String(s.falsePositives),
    s.negatives ? pct(s.fpRate) : '-',
    `${s.detectionMs.p50.toFixed(0)} ms`,
    `${s.checkMs.p50.toFixed(0)} ms`,
  ];
  const out = [
    `verifier: ${r.verifier}`,
    table([head, ...r.categories.map((c) => row(c.category, c)), row('TOTAL', r.totals)]),
    '',
    table([
      ['repository', 'pos', 'caught', 'recall', 'flagged', 'neg', 'FP', 'FP rate', 'detect p50', 'check p50'],
      ...r.repos.map((x) => row(`${x.origin} (${x.runner})`, x)),
      row('TOTAL', r.totals),
    ]),
    '',
    `cheats stopped by: ${Object.entries(r.caughtBy)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  if (r.totals.verifyMs)
    out.push(
      `verification run (tree + original checks): p50 ${r.totals.verifyMs.p50} ms, p95 ${r.totals.verifyMs.p95} ms`,
    );
  out.push(`${r.scenarios.length} scenarios in ${(r.durationMs / 1000).toFixed(1)} s (concurrency ${r.concurrency})`);
  const failed = r.scenarios.filter((o) => !o.ok);
  if (failed.length) {
    out.push('', 'scenarios not as labelled:');
    for (const o of failed) out.push(`  ${describeRealFailure(o)}`);
  }
  return out.join('\n');
}

/** One line saying how a scenario differs from its label. */
export function describeRealFailure(o: RealOutcome): string {
  const parts: string[] = [];
  if (o.error) parts.push(`error: ${o.error.split('\n')[0]}`);
  if (o.verdict !== o.expectedVerdict) parts.push(`${o.verdict}, labelled ${o.expectedVerdict}`);
  if (!o.premiseHeld) parts.push(`the agent's check ${o.checkPassed ? 'passed' : 'failed'}, labelled otherwise`);
  return `${o.id} (${o.positive ? 'cheat' : 'hard negative'}, ${o.category}): ${parts.join('; ')} [caught by: ${
    o.caughtBy ?? '-'
  }; found: ${o.types.join(' ') || 'nothing'}]`;
}
