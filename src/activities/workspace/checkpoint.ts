import execa from 'execa';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SnapshotKind } from '../../core/snapshot-diff';
import { execProcess } from '../spawner';
import { readManifest, rollbackDir } from './checkpoint-folder';
import { createGitCheckpoint, rollbackGit, treeFiles } from './checkpoint-git';
import {
  archivePath,
  CheckpointInfo,
  CheckpointNotFoundError,
  checkpointRef,
  checkpointsDir,
  CreateCheckpointHooks,
  CreateCheckpointInput,
  CreateCheckpointResult,
  ensureCheckpointsDir,
  ListCheckpointsInput,
  ListCheckpointsResult,
  manifestPath,
  refComponent,
  RollbackToCheckpointInput,
  RollbackToCheckpointResult,
} from './checkpoint-refs';
import { readObject, storeSnapshot } from './checkpoint-store';
import { baseEnv, git, gitPrefix, gitProbe, WorkspaceGitError, type GitProbe } from './snapshot';

/**
 * Records the workspace's current files so the loop can return to them. In a git work tree: the tracked files and
 * the untracked ones that are not ignored become a commit under `refs/ralph/<loopId>/<label>`, built in the loop's
 * own persistent index (see {@link gitCheckpoint}) so the user's branch, index, stash and work tree stay as they are.
 * Elsewhere: a manifest plus a content-addressed store under the loop's state folder (see checkpoint-store.ts). The
 * state folder is never included. Idempotent: the same label again replaces the checkpoint.
 */
export async function createCheckpoint(
  input: CreateCheckpointInput,
  hooks: CreateCheckpointHooks = {},
): Promise<CreateCheckpointResult> {
  const { workspace, stateDir, loopId, label } = input;
  const known = gitLayouts.get(workspace);
  if (known) {
    try {
      return await createGitCheckpoint(input, { ...known, head: undefined }, hooks);
    } catch (e) {
      // The workspace may have changed under us (repo removed or moved): ask git again below.
      gitLayouts.delete(workspace);
      if ((e as Error).name !== 'WorkspaceGitError') throw e;
    }
  }
  // One rev-parse answers "is this a git work tree?", "where is its index?" and "what is HEAD?".
  const probe = dirWorkspaces.has(workspace) ? undefined : await gitProbe(workspace);
  if (!probe?.inside) {
    dirWorkspaces.add(workspace);
    await ensureCheckpointsDir(checkpointsDir(stateDir, loopId));
    const archive = archivePath(stateDir, loopId, label);
    const m = await storeSnapshot(
      workspace,
      [stateDir],
      checkpointsDir(stateDir, loopId),
      label,
      manifestPath(archive),
    );
    // An archive of an older checkpoint under the same label is replaced, like the label's manifest.
    await fs.promises.rm(archive, { force: true });
    return { ref: m.path, commit: null, kind: 'dir' };
  }
  const r = await createGitCheckpoint(input, probe, hooks);
  gitLayouts.set(workspace, {
    inside: true,
    indexPath: probe.indexPath,
    excludePath: probe.excludePath,
    commonDir: probe.commonDir,
    refHookPath: probe.refHookPath,
    prefix: probe.prefix,
  });
  return r;
}

/**
 * Where each git workspace keeps its index and exclude file, learnt from its first checkpoint in this process: later
 * checkpoints skip the `rev-parse` (one process fewer per checkpoint) and name HEAD symbolically.
 */
const gitLayouts = new Map<string, Omit<GitProbe, 'head'>>();

/**
 * Plain folders this process has checkpointed: they stay plain folders for their loops (an agent's `git init` inside
 * one would otherwise switch the kind of checkpoint between a pre-run and a post-run one), without a `rev-parse` each.
 */
const dirWorkspaces = new Set<string>();

/** Whether a workspace is checkpointed as a plain folder (asks git only about a workspace not seen before). */
async function isPlainFolder(workspace: string): Promise<boolean> {
  if (dirWorkspaces.has(workspace)) return true;
  if (gitLayouts.has(workspace)) return false;
  return (await gitPrefix(workspace)) === null;
}

export type { CommitChange } from './index-file';
// The checkpoint store's parts, under the one module its users import.
export {
  CheckpointNotFoundError,
  checkpointRef,
  checkpointsDir,
  ensureCheckpointsDir,
  refComponent,
  type CheckpointInfo,
  type CreateCheckpointHooks,
  type CreateCheckpointInput,
  type CreateCheckpointResult,
  type ListCheckpointsInput,
  type ListCheckpointsResult,
  type RollbackToCheckpointInput,
  type RollbackToCheckpointResult,
} from './checkpoint-refs';
export { diffCommits, treeFiles } from './checkpoint-git';
export { extractDirCheckpoint } from './checkpoint-folder';

/**
 * Makes the workspace's files equal to a checkpoint's: files changed or deleted since are written back, files added
 * since are removed (ignored files and the state folder are left alone). In a git work tree the user's HEAD, branch,
 * index and stash are not touched. Idempotent: a second rollback to the same checkpoint changes nothing.
 */
export async function rollbackToCheckpoint(input: RollbackToCheckpointInput): Promise<RollbackToCheckpointResult> {
  const prefix = dirWorkspaces.has(input.workspace) ? null : await gitPrefix(input.workspace);
  return prefix === null ? rollbackDir(input) : rollbackGit(input, prefix);
}

/** Lists a loop's checkpoints in the workspace, oldest first. */
export async function listCheckpoints(input: ListCheckpointsInput): Promise<ListCheckpointsResult> {
  const { workspace, loopId } = input;
  if (await isPlainFolder(workspace)) {
    const dir = checkpointsDir(input.stateDir ?? path.join(workspace, '.ralph'), loopId);
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const checkpoints: CheckpointInfo[] = [];
    for (const n of names.filter((f) => f.endsWith('.json') && !f.startsWith('.'))) {
      const ref = path.join(dir, n);
      const m = await readManifest(ref);
      // Older checkpoints are named by their archive, newer ones by their manifest.
      const archive = ref.replace(/\.json$/, '.tar.gz');
      if (m)
        checkpoints.push({
          label: m.label,
          ref: m.store === 'cas' ? ref : archive,
          commit: null,
          createdAt: m.createdAt,
        });
    }
    checkpoints.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { kind: 'dir', checkpoints };
  }
  const base = `refs/ralph/${refComponent(loopId)}/`;
  const out = await git(workspace, [
    'for-each-ref',
    '--sort=committerdate',
    '--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)',
    base,
  ]);
  const checkpoints = out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, commit, createdAt] = line.split('\0');
      return { label: ref.slice(base.length), ref, commit, createdAt };
    });
  return { kind: 'git', checkpoints };
}

/** Files of a checkpoint and the commit holding them (git workspaces). */
export interface CheckpointFiles {
  kind: SnapshotKind;
  commit: string | null;
  /** Workspace-relative posix path → git blob id. */
  files: Record<string, string>;
}

/** Reads which files a checkpoint holds (from its commit's tree, or from a plain folder's archive manifest). */
export async function checkpointFiles(input: CreateCheckpointInput): Promise<CheckpointFiles> {
  const { workspace, stateDir, loopId, label } = input;
  // A workspace this process already checkpointed as git needs no `rev-parse` to know it.
  if (await isPlainFolder(workspace)) {
    const m = await readManifest(manifestPath(archivePath(stateDir, loopId, label)));
    if (!m) throw new CheckpointNotFoundError(workspace, loopId, label);
    return { kind: 'dir', commit: null, files: m.files };
  }
  let commit: string;
  try {
    commit = (await git(workspace, ['rev-parse', '-q', '--verify', `${checkpointRef(loopId, label)}^{commit}`])).trim();
  } catch {
    throw new CheckpointNotFoundError(workspace, loopId, label);
  }
  return { kind: 'git', commit, files: await treeFiles(workspace, commit) };
}

/**
 * Text of git blobs by id, with one `git cat-file --batch`; a missing blob, a binary one (NUL byte) or one over
 * `maxBytes` maps to undefined.
 */
export async function readBlobs(
  workspace: string,
  ids: string[],
  maxBytes = MAX_INSPECTED_BYTES,
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const args = ['cat-file', '--batch'];
  const r = await execProcess('git', args, {
    cwd: workspace,
    env: baseEnv(),
    input: unique.map((id) => `${id}\n`).join(''),
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.exitCode !== 0 || r.truncated)
    throw new WorkspaceGitError(workspace, args, r.exitCode, r.spawnError ?? r.stderr.toString('utf8'));
  const buf = r.stdout;
  let pos = 0;
  for (const id of unique) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const size = Number(buf.subarray(pos, nl).toString().split(' ')[2]);
    pos = nl + 1;
    if (!Number.isFinite(size)) continue; // "<id> missing"
    out.set(id, asText(buf.subarray(pos, pos + size), maxBytes));
    pos += size + 1;
  }
  return out;
}

const asText = (b: Buffer, maxBytes: number): string | undefined =>
  b.length > maxBytes || b.subarray(0, 8000).includes(0) ? undefined : b.toString('utf8');

/** Largest file whose content the detectors read. */
export const MAX_INSPECTED_BYTES = 1024 * 1024;

/**
 * Text content of some files as a checkpoint holds them; a path the checkpoint lacks, a binary file (NUL byte) or one
 * over `maxBytes` maps to undefined. Git: one `git cat-file --batch` for all of them; plain folders: one tar extract.
 */
export async function checkpointContents(
  input: CreateCheckpointInput,
  cp: CheckpointFiles,
  paths: string[],
  maxBytes = MAX_INSPECTED_BYTES,
): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  const wanted = paths.filter((p) => cp.files[p] !== undefined);
  for (const p of paths) out[p] = undefined;
  if (!wanted.length) return out;
  if (cp.kind === 'git') {
    const blobs = await readBlobs(
      input.workspace,
      wanted.map((p) => cp.files[p]),
      maxBytes,
    );
    for (const p of wanted) out[p] = blobs.get(cp.files[p]);
    return out;
  }
  const dir = checkpointsDir(input.stateDir, input.loopId);
  const stored = await Promise.all(wanted.map((p) => readObject(dir, cp.files[p])));
  if (stored.every((b) => b !== undefined)) {
    wanted.forEach((p, i) => (out[p] = asText(stored[i]!, maxBytes)));
    return out;
  }
  const archive = archivePath(input.stateDir, input.loopId, input.label);
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-cp-'));
  try {
    await execa('tar', ['-xzf', archive, '-C', tmp, '--null', '--verbatim-files-from', '-T', '-'], {
      input: wanted.map((f) => `${f}\0`).join(''),
    });
    for (const p of wanted) {
      const b = await fs.promises.readFile(path.join(tmp, p)).catch(() => undefined);
      out[p] = b ? asText(b, maxBytes) : undefined;
    }
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
  return out;
}
