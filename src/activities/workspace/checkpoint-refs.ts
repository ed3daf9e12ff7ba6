/** What checkpoints are called and where they live: inputs and results of the checkpoint activities, ref names, folders. */
import fs from 'node:fs';
import path from 'node:path';
import { diffSnapshots, type SnapshotKind, type WorkspaceSnapshot } from '../../core/snapshot-diff';
import { loopDir } from '../../state/artifacts';
import type { CommitChange } from './index-file';
import { CheckpointNotFoundError } from '../errors';

/** Input of {@link createCheckpoint}. */
export interface CreateCheckpointInput {
  workspace: string;
  /** The loop's state folder: archives of plain-folder workspaces go under `<stateDir>/loops/<loopId>/checkpoints`. */
  stateDir: string;
  loopId: string;
  /** Name of the checkpoint, unique within the loop (e.g. `iteration-007-pre`); reusing it replaces the checkpoint. */
  label: string;
}

/** Result of {@link createCheckpoint}. */
export interface CreateCheckpointResult {
  /** `refs/ralph/<loopId>/<label>` in a git workspace, the archive's path otherwise. */
  ref: string;
  /** The checkpoint commit (git workspaces only). */
  commit: string | null;
  /** Its tree: equal trees mean equal workspaces (git workspaces only). */
  tree?: string;
  kind: SnapshotKind;
}

/** Input of {@link rollbackToCheckpoint}. */
export type RollbackToCheckpointInput = CreateCheckpointInput;

/** Result of {@link rollbackToCheckpoint}: workspace-relative posix paths, sorted. */
export interface RollbackToCheckpointResult {
  /** Files rewritten with the checkpoint's content (changed or deleted since). */
  restored: string[];
  /** Files removed because the checkpoint did not have them. */
  removed: string[];
}

/** Input of {@link listCheckpoints}. */
export interface ListCheckpointsInput {
  workspace: string;
  loopId: string;
  /** Needed for plain-folder workspaces only; defaults to `<workspace>/.ralph`. */
  stateDir?: string;
}

/** One checkpoint of a loop. */
export interface CheckpointInfo {
  label: string;
  ref: string;
  commit: string | null;
  createdAt: string;
}

/** Result of {@link listCheckpoints}: oldest first. */
export interface ListCheckpointsResult {
  kind: SnapshotKind;
  checkpoints: CheckpointInfo[];
}

/** Makes a string safe as one component of a git ref and of a file name (same mapping as loopDir for the rest). */
export const refComponent = (s: string): string =>
  s
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[.-]/, '_')
    .replace(/\.\./g, '__')
    .replace(/\.lock$/, '_lock') || '_';

/** The ref that holds a git workspace's checkpoint. */
export const checkpointRef = (loopId: string, label: string): string =>
  `refs/ralph/${refComponent(loopId)}/${refComponent(label)}`;

/** Folder of a loop's checkpoint data: plain-folder manifests and store, the git index of git workspaces. */
export const checkpointsDir = (stateDir: string, loopId: string): string =>
  path.join(loopDir(stateDir, loopId), 'checkpoints');

export const archivePath = (stateDir: string, loopId: string, label: string): string =>
  path.join(checkpointsDir(stateDir, loopId), `${refComponent(label)}.tar.gz`);

export const manifestPath = (archive: string): string => archive.replace(/\.tar\.gz$/, '.json');

// Fixed identity: checkpoints must work on machines with no user.name/user.email configured.
/** Who checkpoint commits are by (commit-object.ts writes the same identity as git with {@link COMMIT_ENV}). */
export const RALPH = { name: 'ralph', email: 'ralph@localhost' };

export const COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'ralph',
  GIT_AUTHOR_EMAIL: 'ralph@localhost',
  GIT_COMMITTER_NAME: 'ralph',
  GIT_COMMITTER_EMAIL: 'ralph@localhost',
};

/**
 * Creates a loop's checkpoints folder with a `.gitignore` of `*`: its index, manifests and store are never the
 * user's content, so `git status` does not list them (nor a state folder holding nothing else).
 */
export async function ensureCheckpointsDir(dir: string): Promise<void> {
  const ignore = path.join(dir, '.gitignore');
  if (fs.existsSync(ignore)) return;
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.writeFile(ignore, '*\n');
}

/** What to do to turn `current` into `target`: files to write from the target, files to delete. */
export function plan(
  current: WorkspaceSnapshot['files'],
  target: WorkspaceSnapshot['files'],
): RollbackToCheckpointResult {
  const d = diffSnapshots({ files: target }, { files: current });
  return { restored: [...d.modified, ...d.deleted].sort(), removed: d.added };
}

/** Optional callbacks of {@link createCheckpoint}. */
export interface CreateCheckpointHooks {
  /**
   * Called with the checkpoint's tree id (git workspaces) as soon as it is written, before the commit and the ref:
   * a caller can start diffing against it meanwhile.
   */
  onTree?: (tree: string, diff?: CommitChange[]) => void;
  /**
   * A commit to diff the new tree against (git workspaces): the same process that writes the tree runs the
   * `diff-tree`, and `onTree` gets its changes (saves starting one more process on the detection pass's path).
   */
  diffFrom?: string;
  /**
   * List the work tree (tree-stat.ts) so that the next checkpoint of the loop in this process can skip git when nothing
   * changed. Default true; a short-lived process (a tool-call hook) has no next checkpoint and passes false.
   */
  listTree?: boolean;
}
export { CheckpointNotFoundError };
