import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { structuredPatch } from 'diff';
import type { GateSpec } from '../../config/gates-config';
import type { Detection } from '../../core/detections';
import { gateCouldNotRun, type GateThresholds, type GateVerdict } from '../../core/gate-rules';
import { parseUnifiedDiff } from '../../core/detectors/unified-diff';
import { isTestFile } from '../../core/detectors/validation-bypass';
import { detectUncheckedCheating, isProductCode } from '../../core/verification/cheat-detectors';
import {
  classifyWork,
  planChangesTree,
  type AllowedChange,
  type ProtectedChange,
  type VerificationPlan,
} from '../../core/verification/classify';
import { conventionKind, isConfigKind, isSectionFile } from '../../core/verification/protected-set';
import { compareSections } from '../../core/verification/sections';
import { onlyCoverageFailed } from '../../core/verification/test-output';
import { judgeTestEdit } from '../../core/verification/benign-test-edit';
import { boundDiff, countChanges, type DiffEvidence, type FileDiff } from '../../core/verification/evidence';
import { excerptFailure, type FailureExcerpt } from '../../core/verification/failure-excerpt';
import { recoverSwap, swapIn } from './swap';
import { iterationDir, writeJsonAtomic } from '../../state/artifacts';
import { runCheckCommand, type CheckCompletionResult } from '../check-completion';
import { runGateIn } from '../gates/run-gate';
import {
  checkpointContents,
  checkpointFiles,
  createCheckpoint,
  extractDirCheckpoint,
  treeFiles,
  type CheckpointFiles,
} from '../workspace/checkpoint';
import { git, gitPrefix } from '../workspace/snapshot';
import { BASELINE_LABEL, manifestFile, readManifest, type VerificationManifest } from '../../state/manifest';
import { sha256File, type BaselineIntegrity } from './record-baseline';
import {
  changedIgnored,
  compareDependencies,
  dependencyFolders,
  fingerprintDependencies,
  ignoredPaths,
  type DependencyChange,
} from './environment';
import { newIgnoredPaths, type EnvironmentChange } from '../../core/verification/environment';
import { beat } from '../liveness';
import { VerificationBaselineMissingError, VerificationBaselineChangedError } from '../errors';

/** Input of {@link verifyWork}. */
export interface VerifyWorkInput {
  loopId: string;
  iteration: number;
  workspace: string;
  stateDir: string;
  /** Label of the checkpoint holding the work (the post-run one); when absent, `iter-NNN-verify` is recorded. */
  post?: string;
  /** The completion command, when the loop has one. */
  command?: string;
  timeoutSeconds: number;
  /** The enabled gates, thresholds resolved. */
  gates: GateSpec[];
  /** The baseline's fingerprints as recorded at loop start: a manifest or baseline changed since is refused. */
  integrity?: BaselineIntegrity;
  /** `verification.install`: how to install the dependencies afresh in the tree when a dependency folder changed. */
  install?: string;
}

/** A gate's verdict in the verification tree, reduced to what history needs. */
export interface VerificationGateVerdict {
  name: string;
  passed: boolean;
  message: string;
}

/** Result of {@link verifyWork}: small (it goes into history); logs and the diff are files. */
export interface VerifyWorkResult {
  /** The original checks pass on the work (true when nothing protected changed: the tree would be the work itself). */
  passed: boolean;
  /** Whether the checks were re-run in a verification tree. */
  ran: boolean;
  /** Runner/lint/CI configuration files in the workspace that .gitignore hides (they never reach the tree). */
  ignoredConfigs?: string[];
  protectedChanges: ProtectedChange[];
  allowedChanges: AllowedChange[];
  /** Test files whose edit only adds cases or renames or moves tests (restored in the tree, no human needed). */
  benignTestEdits?: BenignTestEdit[];
  /**
   * What the tree left out that is not protected (dotfiles, tool configuration under any name, new package scripts,
   * new files git ignores): named when the original checks fail without them.
   */
  environmentChanges?: EnvironmentChange[];
  /** Of those, the ones with which (put back in the tree) the original checks pass: what made the difference. */
  madeTheDifference?: string[];
  /** Dependency folders that differ from their baseline fingerprints. */
  dependencyChanges?: DependencyChange[];
  /** The fresh install the tree got because a dependency folder changed. */
  install?: { command: string; passed: boolean; durationMs: number; outputPath: string };
  newTests: string[];
  /**
   * Which run of the tree failed: `original` (the original tests alone, the agent's new test files left out) or
   * `new-tests` (the second run, with them).
   */
  failedPass?: 'original' | 'new-tests';
  /** Unified diff of the protected files, baseline → work. */
  diffPath?: string;
  /** One line per protected file: `test/run.js | +1 -5`. */
  diffSummary?: string;
  /** The protected files' diff per file and hunk, bounded (the gate shows it). */
  diff?: DiffEvidence;
  /** End of the failing check's (or first failing gate's) output in the verification tree. */
  failureTail?: string;
  /** The failing check's (or first failing gate's) output around its first errors, and the log it comes from. */
  failure?: FailureExcerpt & { path?: string };
  check?: Pick<CheckCompletionResult, 'passed' | 'exitCode' | 'timedOut' | 'durationMs' | 'outputPath'>;
  verdicts: VerificationGateVerdict[];
  /** Findings of the detectors of cheating the checks cannot see (special-cased tests, test-only switches, mocks). */
  detections: Detection[];
  durationMs: number;
  /** Time to build and remove the verification tree. */
  treeMs?: number;
}

/** One benign test edit: the file, the tests it added and the ones it renamed. */
export interface BenignTestEdit {
  path: string;
  added: number;
  renamed: string[];
}

/** The protected test files whose edit {@link judgeTestEdit} finds benign (both sides must have been read). */
function benignTestEdits(
  changes: readonly ProtectedChange[],
  before: Record<string, string | undefined>,
  after: Record<string, string | undefined>,
): BenignTestEdit[] {
  const out: BenignTestEdit[] = [];
  for (const c of changes) {
    if (c.kind !== 'test' || c.change !== 'modified') continue;
    const was = before[c.path];
    const now = after[c.path];
    if (was === undefined || now === undefined) continue;
    const v = judgeTestEdit(c.path, was, now);
    if (v.benign) out.push({ path: c.path, added: v.added, renamed: v.renamed });
  }
  return out;
}

/** Where verifyWork writes its full result (with the plan and the merged multi-purpose files). */
export const resultFile = (stateDir: string, loopId: string, n: number): string =>
  path.join(iterationDir(stateDir, loopId, n), 'verification', 'result.json');

const MAX_DIFF_FILES = 300;
const MAX_TEST_TEXTS = 300;
const MAX_CHANGES = 100;

/**
 * Verifies the work against the ORIGINAL checks, in a tree built from an allow-list. Classifies the work (a
 * checkpoint) against the verification baseline: protected files changed are restored, and so is everything outside
 * the allow-list of work (product code, docs and data, manifests, new tests): dotfiles, tool configuration under any
 * name, new package scripts are absent or reverted; files git ignores never reach the tree, and a new one since the
 * baseline sends the work there; dependency folders are linked when their fingerprints are unchanged and installed
 * afresh (`install`) when not. The tree (a detached `git worktree` of the work's checkpoint under the OS temp folder,
 * or the plain folder's archive extracted there) runs the completion command and the gates twice when the agent added
 * test files: first without them (the verdict of the original tests alone), then with them. It is skipped only when
 * the work cannot differ from it (product code alone changed, nothing new ignored, dependencies unchanged). Logs go
 * to `iterations/NNN/verification/`. Also runs the detectors of cheating the checks cannot see over the work's diff.
 */
export async function verifyWork(input: VerifyWorkInput): Promise<VerifyWorkResult> {
  const t0 = Date.now();
  const manifest = trustedManifest(input);
  // An earlier attempt that died mid-check left the workspace swapped: the work comes back before anything reads it.
  await recoverSwap(input.stateDir, input.loopId);
  const at = (label: string) => ({
    workspace: input.workspace,
    stateDir: input.stateDir,
    loopId: input.loopId,
    label,
  });
  const postLabel = input.post ?? `iter-${String(input.iteration).padStart(3, '0')}-verify`;
  if (!input.post) await createCheckpoint(at(postLabel));
  const [base, work] = await Promise.all([baselineFiles(input, manifest), checkpointFiles(at(postLabel))]);
  const changed = Object.keys({ ...base.files, ...work.files })
    .filter((p) => base.files[p] !== work.files[p])
    .sort();

  // Both sides of the changed files the rules and detectors read: multi-purpose files, code and tests.
  const wanted = changed.filter((p) => isSectionFile(p) || isProductCode(p) || isTestFile(p)).slice(0, MAX_DIFF_FILES);
  const [before, after] = await Promise.all([
    checkpointContents(at(BASELINE_LABEL), base, wanted),
    checkpointContents(at(postLabel), work, wanted),
  ]);
  const { sections, environmentSections, merged } = sectionChanges(changed.filter(isSectionFile), work, before, after);
  const plan = classifyWork({
    baseline: base.files,
    current: work.files,
    set: { protected: manifest.protected, allowed: manifest.allowed },
    rules: manifest.rules,
    sections,
    environmentSections,
  });

  const dir = path.dirname(resultFile(input.stateDir, input.loopId, input.iteration));
  fs.mkdirSync(dir, { recursive: true });
  // Test files the agent only added cases to, renamed or moved tests in: still restored in the tree, but no human
  // needs to look at them when the original tests pass there.
  const benign = benignTestEdits(plan.protectedChanges, before, after);
  const result: VerifyWorkResult = {
    passed: true,
    ran: false,
    protectedChanges: plan.protectedChanges.filter((c) => !benign.some((b) => b.path === c.path)).slice(0, MAX_CHANGES),
    ...(benign.length ? { benignTestEdits: benign.slice(0, MAX_CHANGES) } : {}),
    allowedChanges: plan.allowedChanges.slice(0, MAX_CHANGES),
    newTests: plan.newTests.slice(0, MAX_CHANGES),
    verdicts: [],
    detections: await cheatingFindings(input, work, changed, before, after, postLabel),
    durationMs: 0,
  };
  if (plan.protectedChanges.length) {
    // The protected files' diff, for the human who reads the gate.
    const protectedPaths = plan.protectedChanges.map((c) => c.path);
    const [was, now] = await Promise.all([
      checkpointContents(at(BASELINE_LABEL), base, protectedPaths),
      checkpointContents(at(postLabel), work, protectedPaths),
    ]);
    Object.assign(result, writeProtectedDiff(dir, protectedPaths, was, now, plan.protectedChanges));
  }

  const env = await environmentOf(input, manifest, plan, result);
  if (planChangesTree(plan) || env.newIgnored.length || env.dependencies.length || plan.newTests.length)
    await verifyInTree({ input, manifest, work, postLabel, plan, merged, held: [] }, env, dir, result);
  result.durationMs = Date.now() - t0;
  writeJsonAtomic(resultFile(input.stateDir, input.loopId, input.iteration), { ...result, plan, merged });
  return result;
}

/**
 * Builds the tree (in place, or of its own for a fresh install), runs the original checks there into `result`, and
 * removes it, always. The new tests a check command names itself stay for the first run: without them it could not
 * run at all.
 */
async function verifyInTree(
  spec: TreeSpec,
  env: EnvironmentScan,
  dir: string,
  result: VerifyWorkResult,
): Promise<void> {
  const { input, plan } = spec;
  result.ran = true;
  const words = [input.command ?? '', ...input.gates.map((g) => g.command)].join(' ');
  const t: TreeSpec = { ...spec, held: plan.newTests.filter((p) => !words.includes(p)) };
  // A fresh install needs a tree of its own; anything else is swapped in place, which costs a few renames.
  const tree = env.install && env.dependencies.length ? await buildTree(t, env.dependencies) : await swapTree(t, env);
  try {
    await runInTree(input, tree, dir, result, env, t.held);
  } finally {
    const t0 = Date.now();
    await tree.remove();
    tree.ms += Date.now() - t0;
    result.treeMs = tree.ms;
  }
}

/** What of the workspace's environment the checkpoints cannot show: new ignored files, changed dependency folders. */
interface EnvironmentScan {
  /** New paths git ignores or excludes since the baseline (build outputs and dependency folders aside). */
  newIgnored: string[];
  /** Of which runner, lint or CI configuration (protected changes when the original run fails without them). */
  hidden: string[];
  dependencies: DependencyChange[];
  /** The command that installs them afresh in the tree; undefined: a changed folder goes to a human. */
  install?: string;
}

/** Scans what the checkpoints cannot show, and records it in `result` (environment and dependency changes). */
async function environmentOf(
  input: VerifyWorkInput,
  manifest: VerificationManifest,
  plan: VerificationPlan,
  result: VerifyWorkResult,
): Promise<EnvironmentScan> {
  const ignored = manifest.kind === 'git' ? await ignoredPaths(input.workspace) : [];
  // A manifest from before the baseline's listing was recorded: only configuration counts as new.
  const newIgnored = manifest.ignored
    ? newIgnoredPaths(manifest.ignored, ignored)
    : ignored.filter((p) => isConfigKind(conventionKind(p)));
  // The user's own ignored files the agent changed since the baseline count as new ones.
  if (manifest.ignoredSignatures)
    for (const p of changedIgnored(input.workspace, manifest.ignoredSignatures))
      if (!newIgnored.includes(p)) newIgnored.push(p);
  const hidden = newIgnored.filter((p) => isConfigKind(conventionKind(p)));
  const dependencies = manifest.dependencies
    ? compareDependencies(manifest.dependencies, fingerprintDependencies(input.workspace))
    : [];
  const install = dependencies.length ? installCommand(input, dependencies) : undefined;
  if (hidden.length) result.ignoredConfigs = hidden.slice(0, MAX_CHANGES);
  const environment: EnvironmentChange[] = [
    ...plan.environmentChanges,
    ...newIgnored
      .filter((p) => !hidden.includes(p))
      .map((p): EnvironmentChange => ({ path: p, change: 'added', reason: 'ignored' })),
  ];
  if (environment.length) result.environmentChanges = environment.slice(0, MAX_CHANGES);
  if (dependencies.length) {
    result.dependencyChanges = dependencies.slice(0, MAX_CHANGES);
    // No way to install them afresh: the tree runs with them as they are, and a human decides.
    if (!install)
      result.protectedChanges.push(
        ...dependencies.map((d): ProtectedChange => ({ path: d.path, change: d.change, kind: 'dependencies' })),
      );
  }
  return { newIgnored, hidden, dependencies, install };
}

/**
 * The install command for the tree: `verification.install`, else what the workspace's lockfiles say for the changed
 * folders (`npm ci`, `pnpm install --frozen-lockfile`, `yarn install --frozen-lockfile` for node_modules; `uv sync
 * --frozen`, or a fresh venv with `pip install -r requirements.txt`, for .venv/venv); undefined when none is known.
 */
export function installCommand(
  input: Pick<VerifyWorkInput, 'install' | 'workspace'>,
  changed: DependencyChange[],
): string | undefined {
  if (input.install) return input.install;
  const has = (f: string): boolean => fs.existsSync(path.join(input.workspace, f));
  const node = changed.every((d) => /(?:^|\/)node_modules$/.test(d.path));
  const python = changed.every((d) => /^\.?venv$/.test(d.path));
  if (node && has('package-lock.json')) return 'npm ci --prefer-offline --no-audit --no-fund';
  if (node && has('pnpm-lock.yaml')) return 'pnpm install --frozen-lockfile --prefer-offline';
  if (node && has('yarn.lock')) return 'yarn install --frozen-lockfile --prefer-offline';
  if (python && has('uv.lock')) return 'uv sync --frozen';
  if (python && changed.length === 1 && has('requirements.txt'))
    return `python3 -m venv ${changed[0].path} && ${changed[0].path}/bin/pip install -q -r requirements.txt`;
  return undefined;
}

/** The changed sections of each multi-purpose file (package.json, pyproject...), and its merge when one is possible. */
function sectionChanges(
  files: string[],
  work: CheckpointFiles,
  before: Record<string, string | undefined>,
  after: Record<string, string | undefined>,
): {
  sections: Record<string, string[]>;
  environmentSections: Record<string, string[]>;
  merged: Record<string, string>;
} {
  const sections: Record<string, string[]> = {};
  const environmentSections: Record<string, string[]> = {};
  const merged: Record<string, string> = {};
  for (const p of files) {
    if (work.files[p] === undefined) continue;
    const c = compareSections(p, before[p] ?? '', after[p] ?? '');
    sections[p] = c.changed;
    if (c.environment?.length) environmentSections[p] = c.environment;
    if (c.merged !== undefined) merged[p] = c.merged;
  }
  return { sections, environmentSections, merged };
}

/** Writes `protected.diff` of the protected files; returns its path and its one-line summary. */
function writeProtectedDiff(
  dir: string,
  paths: string[],
  was: Record<string, string | undefined>,
  now: Record<string, string | undefined>,
  changes: readonly ProtectedChange[],
): Pick<VerifyWorkResult, 'diffPath' | 'diffSummary' | 'diff'> {
  const diffPath = path.join(dir, 'protected.diff');
  fs.writeFileSync(diffPath, paths.map((p) => fileDiff(p, was[p], now[p])).join(''));
  const files = paths.map((p): FileDiff => {
    const change = changes.find((c) => c.path === p)?.change;
    const kind = change === 'added' || change === 'deleted' ? change : 'modified';
    if (was[p] === undefined && now[p] === undefined)
      return { path: p, change: kind, added: 0, removed: 0, hunks: [], binary: true };
    const patch = structuredPatch(p, p, was[p] ?? '', now[p] ?? '', '', '', { context: 3 });
    const hunks = patch.hunks.map((h) => ({ ...h, lines: [...h.lines] }));
    return { path: p, change: kind, ...countChanges(hunks), hunks };
  });
  return { diffPath, diffSummary: diffStat(paths, was, now), diff: boundDiff(files, undefined, diffPath) };
}

/** The loop's verification manifest, checked against the fingerprints history recorded at loop start. */
function trustedManifest(input: VerifyWorkInput): VerificationManifest {
  const manifest = readManifest(input.stateDir, input.loopId);
  if (!manifest) throw new VerificationBaselineMissingError(input.stateDir, input.loopId);
  const trusted = input.integrity;
  if (trusted) {
    if (sha256File(manifestFile(input.stateDir, input.loopId)) !== trusted.manifestSha256)
      throw new VerificationBaselineChangedError('manifest');
    if (trusted.archiveSha256 && sha256File(manifest.baseline.ref) !== trusted.archiveSha256)
      throw new VerificationBaselineChangedError('baseline archive');
    // The ref lives in the workspace's repository: trust the commit recorded in history, not the ref.
    if (trusted.commit) manifest.baseline.commit = trusted.commit;
  }
  return manifest;
}

async function runInTree(
  input: VerifyWorkInput,
  tree: Tree,
  dir: string,
  result: VerifyWorkResult,
  env: EnvironmentScan,
  held: string[],
): Promise<void> {
  const ctx = activityContext();
  const runEnv = { PYTHONPYCACHEPREFIX: path.join(tree.scratch, 'pycache'), PYTHONDONTWRITEBYTECODE: '1' };
  if (env.install && env.dependencies.length) {
    const r = await runCheckCommand({
      command: env.install,
      cwd: tree.cwd,
      loopId: input.loopId,
      timeoutSeconds: Math.max(input.timeoutSeconds, 600),
      outputPath: path.join(dir, 'install.log'),
      errPath: path.join(dir, 'install.stderr.log'),
      onHeartbeat: ctx ? (p) => beat(ctx, p) : undefined,
      signal: ctx?.cancellationSignal,
    });
    result.install = { command: env.install, passed: r.passed, durationMs: r.durationMs, outputPath: r.outputPath };
    if (!r.passed) {
      result.passed = false;
      result.failedPass = 'original';
      result.failureTail = `the fresh install in the verification tree failed (${env.install}):\n${r.outputTail}`.slice(
        -1500,
      );
      return;
    }
  }
  const first = await runOriginalChecks(input, tree.cwd, dir, runEnv);
  Object.assign(result, first);
  // New code that only the new tests cover fails a coverage threshold without them: the second run judges it.
  const coverageOnly =
    !first.passed &&
    held.length > 0 &&
    first.verdicts.every((v) => v.passed) &&
    onlyCoverageFailed(`${tail(path.join(dir, 'check.log'))}\n${tail(path.join(dir, 'check.stderr.log'))}`);
  if (!first.passed && !coverageOnly) {
    result.failedPass = 'original';
    if (tree.inPlace && !result.protectedChanges.length) await attribute(input, tree, dir, result, runEnv);
    for (const p of env.hidden)
      if (!result.protectedChanges.some((c) => c.path === p))
        result.protectedChanges.push({ path: p, change: 'added', kind: conventionKind(p) ?? 'runner_config' });
    return;
  }
  if (!held.length) return;
  await tree.unhide(held);
  const second = await runOriginalChecks(input, tree.cwd, path.join(dir, 'with-new-tests'), runEnv);
  if (second.passed && coverageOnly) Object.assign(result, second, { failureTail: undefined, failure: undefined });
  if (!second.passed) {
    Object.assign(result, second);
    result.failedPass = 'new-tests';
    result.failureTail =
      `with the agent's new test files (${held.slice(0, 5).join(', ')}):\n${second.failureTail ?? ''}`.slice(-1500);
  }
}

/** Most environment changes {@link attribute} puts back one by one (each costs a run of the checks). */
const MAX_ATTRIBUTED = 4;

/**
 * Which environment changes made the difference, when the original checks failed in the tree and nothing protected
 * changed: puts them back one at a time (at most {@link MAX_ATTRIBUTED}) and re-runs the checks; the changes put back
 * when they first pass are named in `madeTheDifference`. Only on a rejection, so it costs nothing on accepted work.
 */
async function attribute(
  input: VerifyWorkInput,
  tree: Tree,
  dir: string,
  result: VerifyWorkResult,
  runEnv: Record<string, string>,
): Promise<void> {
  const candidates = [...new Set((result.environmentChanges ?? []).map((c) => c.path))].sort();
  if (!candidates.length || candidates.length > MAX_ATTRIBUTED) return;
  for (let k = 0; k < candidates.length; k++) {
    await tree.unhide([candidates[k]]);
    const r = await runOriginalChecks(input, tree.cwd, path.join(dir, 'attribution', String(k + 1)), runEnv);
    if (r.passed) {
      result.madeTheDifference = candidates.slice(0, k + 1);
      return;
    }
  }
}

/** One run of the original checks in the tree. */
type TreeRun = Pick<VerifyWorkResult, 'passed' | 'check' | 'verdicts' | 'failureTail' | 'failure'>;

/** Runs the completion command and the gates in the verification tree at `cwd`; logs go to `dir`. */
async function runOriginalChecks(
  input: VerifyWorkInput,
  cwd: string,
  dir: string,
  env: Record<string, string>,
): Promise<TreeRun> {
  const ctx = activityContext();
  const heartbeat = ctx ? (p: unknown) => beat(ctx, p) : undefined;
  const signal = ctx?.cancellationSignal;
  const [check, ...verdicts] = await Promise.all([
    input.command
      ? runCheckCommand({
          command: input.command,
          cwd,
          loopId: input.loopId,
          timeoutSeconds: input.timeoutSeconds,
          outputPath: path.join(dir, 'check.log'),
          errPath: path.join(dir, 'check.stderr.log'),
          env,
          onHeartbeat: heartbeat,
          signal,
        })
      : Promise.resolve(undefined),
    ...input.gates.map((gate) =>
      runGateIn({
        workspace: cwd,
        gate,
        thresholds: gate.thresholds as GateThresholds,
        logDir: path.join(dir, 'gates'),
        env,
        onHeartbeat: heartbeat,
        signal,
      }).catch((e: unknown): GateVerdict => {
        if ((e as Error)?.name === 'CancelledFailure') throw e;
        return gateCouldNotRun(gate, (e as Error)?.message ?? String(e));
      }),
    ),
  ]);
  const out: TreeRun = {
    passed: (check?.passed ?? true) && verdicts.every((v) => v.passed),
    verdicts: verdicts.map((v) => ({ name: v.name, passed: v.passed, message: v.message })),
  };
  if (check)
    out.check = {
      passed: check.passed,
      exitCode: check.exitCode,
      timedOut: check.timedOut,
      durationMs: check.durationMs,
      outputPath: check.outputPath,
    };
  const firstFailed = verdicts.find((v) => !v.passed);
  if (check && !check.passed) {
    out.failureTail = check.outputTail.slice(-1500);
    const text = `${head(check.outputPath)}\n${head(path.join(dir, 'check.stderr.log'))}`;
    out.failure = { ...excerptFailure(text.trim() ? text : check.outputTail), path: check.outputPath };
  } else if (firstFailed) {
    out.failureTail = `${firstFailed.name}: ${firstFailed.message}\n${tail(firstFailed.outputPath)}`
      .trim()
      .slice(-1500);
    // The gate's verdict first: it is the headline when its log says nothing a runner would (a threshold failed).
    out.failure = {
      ...excerptFailure(`${firstFailed.name}: ${firstFailed.message}\n${head(firstFailed.outputPath)}`),
      ...(firstFailed.outputPath ? { path: firstFailed.outputPath } : {}),
    };
  }
  return out;
}

/** The baseline's files: from the trusted commit (git), or the archive's manifest. */
async function baselineFiles(input: VerifyWorkInput, m: VerificationManifest): Promise<CheckpointFiles> {
  if (m.kind === 'git' && m.baseline.commit)
    return { kind: 'git', commit: m.baseline.commit, files: await treeFiles(input.workspace, m.baseline.commit) };
  return checkpointFiles({
    workspace: input.workspace,
    stateDir: input.stateDir,
    loopId: input.loopId,
    label: BASELINE_LABEL,
  });
}

/** The verification tree: where the checks run, and how to remove it. */
interface Tree {
  cwd: string;
  /** The workspace itself, swapped (else a tree of its own). */
  inPlace: boolean;
  /** A folder outside the tree, removed with it (the checks' bytecode prefix). */
  scratch: string;
  /** Puts the agent's new test files, left out for the first run, back. */
  unhide: (paths: string[]) => Promise<void>;
  remove: () => Promise<void>;
  ms: number;
}

/** What a tree is built from. */
interface TreeSpec {
  input: VerifyWorkInput;
  manifest: VerificationManifest;
  work: CheckpointFiles;
  postLabel: string;
  plan: VerificationPlan;
  merged: Record<string, string>;
  /** The agent's new test files the first run goes without. */
  held: string[];
}

/**
 * The tree in place: the workspace itself with the plan's files swapped (restored, merged, removed), the new ignored
 * files and the held new tests moved aside (see swap.ts), until {@link Tree.remove}.
 */
async function swapTree(t: TreeSpec, env: EnvironmentScan): Promise<Tree> {
  const t0 = Date.now();
  const { input, manifest, plan } = t;
  const source = (label: string, commit: string | null) => ({ kind: manifest.kind, commit, label });
  const swap = await swapIn(
    input.workspace,
    {
      stateDir: input.stateDir,
      loopId: input.loopId,
      baseline: source(BASELINE_LABEL, manifest.baseline.commit),
      post: source(t.postLabel, t.work.commit ?? null),
    },
    {
      restore: plan.restore,
      write: Object.fromEntries(plan.merge.filter((p) => t.merged[p] !== undefined).map((p) => [p, t.merged[p]])),
      hide: [...plan.remove, ...env.newIgnored, ...t.held],
    },
  );
  await fs.promises.mkdir(swap.scratch, { recursive: true });
  return {
    cwd: input.workspace,
    inPlace: true,
    scratch: swap.scratch,
    unhide: swap.unhide,
    remove: swap.undo,
    ms: Date.now() - t0,
  };
}

/**
 * A tree of its own under the OS temp folder (a detached `git worktree` of the work's checkpoint, or the plain
 * folder's archive extracted there) with the plan applied, the dependency folders linked except the changed ones
 * (`reinstall`: installed afresh there), and the held new tests moved aside.
 */
async function buildTree(t: TreeSpec, reinstall: DependencyChange[]): Promise<Tree> {
  const { input, manifest, work, postLabel, plan, merged } = t;
  const t0 = Date.now();
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-verify-'));
  const root = path.join(tmp, 'tree');
  const scratch = path.join(tmp, 'scratch');
  const links: string[] = [];
  let worktree = false;
  const remove = async (): Promise<void> => {
    // Links first: nothing below may ever follow them into the real workspace's dependencies.
    for (const l of links) await fs.promises.unlink(l).catch(() => undefined);
    if (worktree) await git(input.workspace, ['worktree', 'remove', '--force', root]).catch(() => undefined);
    await fs.promises.rm(tmp, { recursive: true, force: true });
    if (worktree) await git(input.workspace, ['worktree', 'prune']).catch(() => undefined);
  };
  try {
    let cwd = root;
    if (work.kind === 'git' && work.commit && manifest.baseline.commit) {
      const prefix = (await gitPrefix(input.workspace)) ?? '';
      // The user's hooks (post-checkout...) must not run for our tree.
      await git(input.workspace, [
        '-c',
        'core.hooksPath=/dev/null',
        'worktree',
        'add',
        '--detach',
        '--force',
        root,
        work.commit,
      ]);
      worktree = true;
      cwd = path.join(root, prefix);
      if (plan.restore.length)
        await git(
          root,
          [
            '-c',
            'core.hooksPath=/dev/null',
            'checkout',
            manifest.baseline.commit,
            '--pathspec-from-file=-',
            '--pathspec-file-nul',
          ],
          { input: plan.restore.map((p) => `${prefix}${p}\0`).join('') },
        );
    } else {
      await fs.promises.mkdir(root, { recursive: true });
      const at = { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId };
      await extractDirCheckpoint({ ...at, label: postLabel }, root);
      if (plan.restore.length) await extractDirCheckpoint({ ...at, label: BASELINE_LABEL }, root, plan.restore);
    }
    for (const p of plan.remove) await fs.promises.rm(path.join(cwd, p), { force: true });
    for (const p of plan.merge) {
      const text = merged[p];
      if (text === undefined) continue;
      await fs.promises.mkdir(path.dirname(path.join(cwd, p)), { recursive: true });
      await fs.promises.writeFile(path.join(cwd, p), text);
    }
    // Changed dependency folders are installed afresh in the tree instead.
    const skip = new Set(reinstall.map((d) => d.path));
    links.push(...(await linkDependencies(input.workspace, cwd, skip)));
    await fs.promises.mkdir(scratch, { recursive: true });
    const hold = path.join(tmp, 'held');
    for (const p of t.held) await move(path.join(cwd, p), path.join(hold, p));
    const unhide = async (ps: string[]): Promise<void> => {
      for (const p of ps) await move(path.join(hold, p), path.join(cwd, p));
    };
    return { cwd, inPlace: false, scratch, unhide, remove, ms: Date.now() - t0 };
  } catch (e) {
    await remove();
    throw e;
  }
}

/**
 * Links the workspace's dependency folders (node_modules, .venv... at its top and one level down) into the tree where
 * the tree has none, so the checks run with the installed dependencies without copying them.
 */
async function linkDependencies(workspace: string, cwd: string, skip: Set<string>): Promise<string[]> {
  const links: string[] = [];
  // A symlinked folder (a shared install) is linked too: its target, not the link, is what the checks read.
  for (const r of dependencyFolders(workspace)) {
    if (skip.has(r)) continue;
    const target = path.join(cwd, r);
    if (fs.existsSync(target) || !fs.existsSync(path.dirname(target))) continue;
    await fs.promises.symlink(path.join(workspace, r), target, 'dir');
    links.push(target);
  }
  return links;
}

/** The detectors of cheating the checks cannot see, over the work's diff against the baseline. */
async function cheatingFindings(
  input: VerifyWorkInput,
  work: CheckpointFiles,
  changed: string[],
  before: Record<string, string | undefined>,
  after: Record<string, string | undefined>,
  postLabel: string,
): Promise<Detection[]> {
  const code = changed.filter((p) => isProductCode(p) || isTestFile(p)).slice(0, MAX_DIFF_FILES);
  if (!code.some(isProductCode) && !code.some((p) => isTestFile(p) && work.files[p] !== undefined)) return [];
  const diff = parseUnifiedDiff(code.map((p) => fileDiff(p, before[p], after[p])).join(''));
  const tests = Object.keys(work.files).filter(isTestFile).slice(0, MAX_TEST_TEXTS);
  const at = { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId, label: postLabel };
  const texts = await checkpointContents(at, work, tests, 256 * 1024);
  return detectUncheckedCheating(
    diff,
    tests.filter((t) => texts[t] !== undefined).map((t) => ({ path: t, text: texts[t] as string })),
  );
}

/** One file's change in git's unified format. */
function fileDiff(p: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const a = before === undefined ? '/dev/null' : `a/${p}`;
  const b = after === undefined ? '/dev/null' : `b/${p}`;
  const patch = structuredPatch(a, b, before ?? '', after ?? '', '', '', { context: 3 });
  let out = `diff --git a/${p} b/${p}\n--- ${a}\n+++ ${b}\n`;
  for (const h of patch.hunks)
    out += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`;
  return out;
}

/** `path | +a -r` per file (binary or unreadable files: `(binary)`). */
function diffStat(
  paths: string[],
  was: Record<string, string | undefined>,
  now: Record<string, string | undefined>,
): string {
  return paths
    .slice(0, 30)
    .map((p) => {
      if (was[p] === undefined && now[p] === undefined) return `${p} | (binary or large)`;
      const patch = structuredPatch(p, p, was[p] ?? '', now[p] ?? '', '', '', { context: 0 });
      const lines = patch.hunks.flatMap((h) => h.lines);
      const plus = lines.filter((l) => l.startsWith('+')).length;
      const minus = lines.filter((l) => l.startsWith('-')).length;
      return `${p} | +${plus} -${minus}${now[p] === undefined ? ' (deleted)' : was[p] === undefined ? ' (added)' : ''}`;
    })
    .join('\n');
}

/** The first `max` bytes of a log (the first errors are near its start), or '' when it cannot be read. */
function head(file: string | undefined, max = 512 * 1024): string {
  if (!file) return '';
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(max);
    const n = fs.readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function tail(file: string): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-1200);
  } catch {
    return '';
  }
}

/** The activity's context, or undefined when called outside an activity (tests, the bench). */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

export { VerificationBaselineMissingError, VerificationBaselineChangedError };

async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  await fs.promises.rename(from, to).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}
