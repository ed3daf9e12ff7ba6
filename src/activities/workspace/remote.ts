/**
 * Moving a loop between hosts through the workspace's git remote: a host-bound loop pushes each post-run checkpoint
 * ref (`refs/ralph/<loopId>/<label>`) to the remote, and `ralph move` re-creates the workspace on the new host by
 * cloning the remote and restoring the last pushed checkpoint into the working tree. No shared filesystem needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { ErrorTypes } from '../../core/constants';
import { checkpointRef, rollbackToCheckpoint } from './checkpoint';
import { git, gitPrefix } from './snapshot';
import { manifestFile } from '../../state/manifest';

/** The URL of remote `name` of the git workspace, or undefined (not a git workspace, no such remote). */
export async function remoteUrl(workspace: string, name: string): Promise<string | undefined> {
  try {
    if ((await gitPrefix(workspace)) === null) return undefined;
    const url = (await git(workspace, ['remote', 'get-url', name])).trim();
    return url || undefined;
  } catch {
    return undefined;
  }
}

/** The ref (under the loop's checkpoint refs) holding its verification manifest as a blob. */
const MANIFEST_REF = 'verification-manifest';

/** Input of {@link pushCheckpoint}. */
export interface PushCheckpointInput {
  workspace: string;
  /** The loop's state folder: its verification manifest travels with the checkpoints. */
  stateDir?: string;
  loopId: string;
  label: string;
  /** Remote URL (recorded at validation, so the push does not depend on the user renaming remotes). */
  url: string;
}

/**
 * Pushes the loop's checkpoint refs up to `label` (every `refs/ralph/<loopId>/*`: the verification baseline and the
 * rollback points travel with the workspace) to the remote; forced, since a label is rewritten when an iteration is
 * retried. Git sends only the objects the remote lacks.
 */
export async function pushCheckpoint(input: PushCheckpointInput): Promise<void> {
  const prefix = checkpointRef(input.loopId, input.label).replace(/[^/]+$/, '');
  // The verification manifest (what is protected, and the baseline) as a blob ref: a moved loop verifies against the
  // same baseline, byte for byte (its hash is in the workflow's history).
  const manifest = input.stateDir ? manifestFile(input.stateDir, input.loopId) : undefined;
  if (manifest && fs.existsSync(manifest)) {
    const blob = (await git(input.workspace, ['hash-object', '-w', manifest])).trim();
    await git(input.workspace, ['update-ref', `${prefix}${MANIFEST_REF}`, blob]);
  }
  await git(input.workspace, ['push', '--quiet', '--no-verify', input.url, `+${prefix}*:${prefix}*`]);
}

/** Input of {@link relocateWorkspace}. */
export interface RelocateWorkspaceInput {
  loopId: string;
  /** Where the workspace goes on this host (absolute). */
  workspace: string;
  /** The remote the old host pushed its checkpoints to. */
  url: string;
  /** The checkpoint to restore; undefined: the remote's default branch as cloned. */
  label?: string;
}

/** Result of {@link relocateWorkspace}. */
export interface RelocateWorkspaceResult {
  workspace: string;
  /** The checkpoint label restored, or `HEAD`. */
  restoredFrom: string;
  restored: number;
  removed: number;
}

/**
 * Re-creates a loop's workspace on this host: clones the remote into `workspace` (or reuses a clone of it there, so a
 * retried activity is idempotent), fetches the loop's checkpoint refs, and makes the working tree equal to the
 * checkpoint. Refuses a non-empty folder that is not a clone of the same remote.
 */
export async function relocateWorkspace(input: RelocateWorkspaceInput): Promise<RelocateWorkspaceResult> {
  const { workspace, url, loopId, label } = input;
  if (!path.isAbsolute(workspace))
    throw ApplicationFailure.nonRetryable(
      `move: the workspace must be an absolute path, got "${workspace}"`,
      ErrorTypes.InvalidInput,
    );
  const exists = fs.existsSync(workspace) && fs.readdirSync(workspace).length > 0;
  if (exists) {
    const have = await remoteUrl(workspace, 'origin');
    if (have !== url)
      throw ApplicationFailure.nonRetryable(
        `move: ${workspace} exists and is not a clone of ${url}: choose an empty or new folder (--workspace)`,
        ErrorTypes.WorkspaceNotFound,
      );
  } else {
    fs.mkdirSync(path.dirname(workspace), { recursive: true });
    await git(path.dirname(workspace), ['clone', '--quiet', url, workspace]);
  }
  if (!label) return { workspace, restoredFrom: 'HEAD', restored: 0, removed: 0 };
  const ref = checkpointRef(loopId, label);
  await git(workspace, [
    'fetch',
    '--quiet',
    url,
    `+refs/ralph/${ref.split('/')[2]}/*:refs/ralph/${ref.split('/')[2]}/*`,
  ]);
  const stateDir = path.join(workspace, '.ralph');
  const r = await rollbackToCheckpoint({ workspace, stateDir, loopId, label });
  const manifestRef = checkpointRef(loopId, MANIFEST_REF);
  const blob = await git(workspace, ['rev-parse', '--verify', '--quiet', manifestRef]).catch(() => '');
  if (blob.trim()) {
    const file = manifestFile(stateDir, loopId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, await git(workspace, ['cat-file', 'blob', blob.trim()]));
  }
  return { workspace, restoredFrom: label, restored: r.restored.length, removed: r.removed.length };
}
