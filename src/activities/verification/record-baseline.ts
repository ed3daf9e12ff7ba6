import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { VerificationConfig } from '../../config/verification-config';
import { computeProtectedSet, conventionKind } from '../../core/verification/protected-set';
import { checkpointFiles, createCheckpoint } from '../workspace/checkpoint';
import { fingerprintDependencies, ignoredPaths, ignoredSignatures } from './environment';
import {
  BASELINE_LABEL,
  manifestFile,
  readManifest,
  writeManifest,
  type VerificationManifest,
} from '../../state/manifest';

/** Input of {@link recordVerificationBaseline}. */
export interface RecordVerificationBaselineInput {
  loopId: string;
  workspace: string;
  stateDir: string;
  /** The task: its text, or the file holding it. */
  prompt?: string;
  promptFile?: string;
  /** The completion command and the enabled gates' commands. */
  commands: string[];
  verification: Pick<VerificationConfig, 'protect' | 'allow' | 'hookPolicy'>;
}

/** Result of {@link recordVerificationBaseline}: small, it goes into history. */
export interface RecordVerificationBaselineResult {
  manifestPath: string;
  kind: 'git' | 'dir';
  /** The baseline checkpoint's ref (git) or archive (plain folder), and its commit. */
  ref: string;
  commit: string | null;
  protectedCount: number;
  /** Files the rules would protect that the task or `allow` lets the agent change (first 20). */
  allowed: string[];
  allowedCount: number;
  /** What verifyWork checks before trusting the manifest and the baseline (the agent can write to the state folder). */
  integrity: BaselineIntegrity;
  durationMs: number;
}

/** Fingerprints of the baseline, kept in the workflow's history where the agent cannot change them. */
export interface BaselineIntegrity {
  commit: string | null;
  manifestSha256: string;
  /** The plain folder's baseline archive. */
  archiveSha256?: string;
}

/** sha256 of a file's bytes, hex. */
export const sha256File = (file: string): string =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Most test files read for the data files they open. */
const MAX_TEST_TEXTS = 400;
const MAX_TEST_BYTES = 256 * 1024;

/**
 * Records the verification baseline at loop start: a checkpoint of the workspace (`refs/ralph/<loopId>/
 * verification-baseline`, or an archive for a plain folder), and the protected set computed on it, written to
 * `<loopDir>/verification/manifest.json` with the paths git ignores and the dependency folders' fingerprints. Idempotent: when the loop already has a manifest (a retried attempt, a
 * continued run), it is kept as it is, so the baseline is always the state before the first agent run.
 */
export async function recordVerificationBaseline(
  input: RecordVerificationBaselineInput,
): Promise<RecordVerificationBaselineResult> {
  const t0 = Date.now();
  const existing = readManifest(input.stateDir, input.loopId);
  if (existing) return summary(existing, manifestFile(input.stateDir, input.loopId), t0);
  const at = { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId, label: BASELINE_LABEL };
  const cp = await createCheckpoint(at);
  const files = Object.keys((await checkpointFiles(at)).files);
  const task = input.prompt ?? (input.promptFile ? await readText(input.promptFile) : '') ?? '';
  const pkg = await readText(path.join(input.workspace, 'package.json'));
  const scripts = pkg ? scriptsOf(pkg) : {};
  const testTexts: Record<string, string> = {};
  for (const f of files.filter((p) => conventionKind(p) === 'test' && /\.\w+$/.test(p)).slice(0, MAX_TEST_TEXTS)) {
    const text = await readText(path.join(input.workspace, f), MAX_TEST_BYTES);
    if (text !== undefined) testTexts[f] = text;
  }
  const rules = {
    protect: input.verification.protect,
    allow: input.verification.allow,
    task,
    commands: input.commands,
  };
  const set = computeProtectedSet({ files, ...rules, scripts, testTexts });
  const ignored = cp.kind === 'git' ? await ignoredPaths(input.workspace) : undefined;
  const manifest: VerificationManifest = {
    version: 1,
    loopId: input.loopId,
    createdAt: new Date().toISOString(),
    workspace: input.workspace,
    kind: cp.kind,
    baseline: { label: BASELINE_LABEL, ref: cp.ref, commit: cp.commit },
    rules,
    hookPolicy: input.verification.hookPolicy,
    protected: set.protected,
    allowed: set.allowed,
    ignored,
    ignoredSignatures: ignored ? ignoredSignatures(input.workspace, ignored) : undefined,
    dependencies: fingerprintDependencies(input.workspace),
  };
  return summary(manifest, writeManifest(input.stateDir, manifest), t0);
}

function summary(m: VerificationManifest, manifestPath: string, t0: number): RecordVerificationBaselineResult {
  return {
    manifestPath,
    integrity: {
      commit: m.baseline.commit,
      manifestSha256: sha256File(manifestPath),
      archiveSha256: m.kind === 'dir' ? sha256File(m.baseline.ref) : undefined,
    },
    kind: m.kind,
    ref: m.baseline.ref,
    commit: m.baseline.commit,
    protectedCount: m.protected.length,
    allowed: m.allowed.slice(0, 20).map((a) => `${a.path} (${a.reason})`),
    allowedCount: m.allowed.length,
    durationMs: Date.now() - t0,
  };
}

async function readText(file: string, maxBytes = 4 * 1024 * 1024): Promise<string | undefined> {
  try {
    const b = await fs.promises.readFile(file);
    return b.length > maxBytes || b.subarray(0, 8000).includes(0) ? undefined : b.toString('utf8');
  } catch {
    return undefined;
  }
}

function scriptsOf(pkg: string): Record<string, string> {
  try {
    const s = (JSON.parse(pkg) as { scripts?: unknown }).scripts;
    if (!s || typeof s !== 'object') return {};
    return Object.fromEntries(Object.entries(s).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
