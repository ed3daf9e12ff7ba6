import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { VerificationPlan } from '../../core/verification/classify';
import { extractDirCheckpoint } from '../workspace/checkpoint';
import { git } from '../workspace/snapshot';
import { BASELINE_LABEL, readManifest } from '../../state/manifest';
import { resultFile, VerificationBaselineMissingError } from './verify-work';

/** Input of {@link revertProtectedChanges}. */
export interface RevertProtectedChangesInput {
  loopId: string;
  /** The iteration whose verification (its result.json) says what to revert. */
  iteration: number;
  workspace: string;
  stateDir: string;
  /** The baseline commit as recorded in history (git workspaces), trusted over the manifest. */
  baselineCommit?: string | null;
}

/** Result of {@link revertProtectedChanges}. */
export interface RevertProtectedChangesResult {
  restored: number;
  removed: number;
  merged: number;
  /** The files reverted (first 50). */
  paths: string[];
}

/**
 * Puts the agent's changes to protected files back to the baseline in the workspace itself (`onProtectedEdit:
 * revert`): changed or deleted protected files get their baseline content, protected settings of multi-purpose files
 * are merged back, configuration files the agent added are removed; everything else the agent did stays. The
 * workspace is then what the verification tree was, where the original checks passed. The user's index, HEAD and
 * branch are not touched. Idempotent.
 */
export async function revertProtectedChanges(
  input: RevertProtectedChangesInput,
): Promise<RevertProtectedChangesResult> {
  const manifest = readManifest(input.stateDir, input.loopId);
  if (!manifest) throw new VerificationBaselineMissingError(input.stateDir, input.loopId);
  const saved = JSON.parse(fs.readFileSync(resultFile(input.stateDir, input.loopId, input.iteration), 'utf8')) as {
    plan: VerificationPlan;
    merged: Record<string, string>;
  };
  const { plan, merged } = saved;
  if (plan.restore.length) {
    const commit = input.baselineCommit ?? manifest.baseline.commit;
    if (manifest.kind === 'git' && commit) {
      const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-revert-'));
      try {
        const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
        await git(input.workspace, ['read-tree', commit], { env });
        await git(input.workspace, ['checkout-index', '-f', '-z', '--stdin'], {
          env,
          input: plan.restore.map((p) => `${p}\0`).join(''),
        });
      } finally {
        await fs.promises.rm(tmp, { recursive: true, force: true });
      }
    } else
      await extractDirCheckpoint(
        { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId, label: BASELINE_LABEL },
        input.workspace,
        plan.restore,
      );
  }
  for (const p of plan.remove) await fs.promises.rm(path.join(input.workspace, p), { force: true });
  for (const p of plan.merge)
    if (merged[p] !== undefined) await fs.promises.writeFile(path.join(input.workspace, p), merged[p]);
  return {
    restored: plan.restore.length,
    removed: plan.remove.length,
    merged: plan.merge.length,
    paths: [...plan.restore, ...plan.remove, ...plan.merge].slice(0, 50),
  };
}
