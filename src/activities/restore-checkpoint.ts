import { checkpointFiles, createCheckpoint, rollbackToCheckpoint } from './workspace/checkpoint';
import { git } from './workspace/snapshot';

/** Input of {@link restoreCheckpoint}. */
export interface RestoreCheckpointInput {
  loopId: string;
  workspace: string;
  stateDir: string;
  /** The checkpoint to restore, e.g. `iter-002-post`. */
  label: string;
  /** `worktree`: make the workspace's files equal to the checkpoint's. `branch`: point a branch at it instead. */
  to: 'worktree' | 'branch';
  /** Branch name for `to: 'branch'` (default `ralph/<loopId>/best`). */
  branch?: string;
  /** Before a worktree restore, record the current state under this label (so nothing is lost). */
  saveAs?: string;
}

/** Result of {@link restoreCheckpoint}. */
export interface RestoreCheckpointResult {
  /** `worktree`, or the branch the checkpoint is now on. */
  restoredTo: string;
  restored: number;
  removed: number;
  /** Label of the saved pre-restore state, when asked for. */
  saved?: string;
}

/**
 * Puts a loop's checkpoint back: into the working tree (the user's branch, index and stash untouched), or onto a
 * branch `ralph/<loopId>/best` for the user to inspect or merge. Plain folders have no branches: `branch` restores into
 * the working tree. Idempotent: restoring the same checkpoint twice changes nothing the second time.
 */
export async function restoreCheckpoint(input: RestoreCheckpointInput): Promise<RestoreCheckpointResult> {
  const at = { workspace: input.workspace, stateDir: input.stateDir, loopId: input.loopId, label: input.label };
  const cp = await checkpointFiles(at);
  if (input.to === 'branch' && cp.kind === 'git' && cp.commit) {
    const branch = input.branch ?? `ralph/${input.loopId}/best`;
    await git(input.workspace, ['check-ref-format', '--branch', branch]);
    await git(input.workspace, ['branch', '-f', branch, cp.commit]);
    return { restoredTo: branch, restored: 0, removed: 0 };
  }
  let saved: string | undefined;
  if (input.saveAs) {
    await createCheckpoint({ ...at, label: input.saveAs });
    saved = input.saveAs;
  }
  const r = await rollbackToCheckpoint(at);
  return { restoredTo: 'worktree', restored: r.restored.length, removed: r.removed.length, saved };
}
