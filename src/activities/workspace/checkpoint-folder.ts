/** The folder store (workspaces that are not git repositories): a checkpoint is a tar.gz archive with a manifest. */
import execa from 'execa';
import fs from 'node:fs';
import { removeFiles } from './checkpoint-git';
import {
  archivePath,
  CheckpointNotFoundError,
  checkpointsDir,
  CreateCheckpointInput,
  manifestPath,
  plan,
  RollbackToCheckpointInput,
  RollbackToCheckpointResult,
} from './checkpoint-refs';
import { restoreFromStore, scanDir, type StoreManifest } from './checkpoint-store';

/** A plain folder's checkpoint manifest (content in the store, or in a tar.gz next to it for older ones). */
export type ArchiveManifest = StoreManifest;

export async function readManifest(file: string): Promise<ArchiveManifest | undefined> {
  try {
    const m = JSON.parse(await fs.promises.readFile(file, 'utf8')) as ArchiveManifest;
    return typeof m?.label === 'string' && m.files && typeof m.files === 'object' ? m : undefined;
  } catch {
    return undefined;
  }
}

export async function rollbackDir(input: RollbackToCheckpointInput): Promise<RollbackToCheckpointResult> {
  const { workspace, stateDir, loopId, label } = input;
  const archive = archivePath(stateDir, loopId, label);
  const manifest = await readManifest(manifestPath(archive));
  if (!manifest) throw new CheckpointNotFoundError(workspace, loopId, label);
  const dir = checkpointsDir(stateDir, loopId);
  const current = await scanDir(workspace, [stateDir], dir, { store: false });
  const p = plan(current.files, manifest.files);
  await removeFiles(workspace, p.removed);
  if (!p.restored.length) return p;
  if (manifest.store === 'cas') await restoreFromStore(workspace, dir, manifest, p.restored);
  else {
    // --touch: a reverted file gets a new mtime, so build tools see that it changed.
    await execa('tar', ['-xzf', archive, '-C', workspace, '--touch', '--null', '--verbatim-files-from', '-T', '-'], {
      input: p.restored.map((f) => `${f}\0`).join(''),
    });
  }
  return p;
}

/**
 * Writes a plain-folder checkpoint's files (all of them, or only `paths`) into `target`: a verification tree, or the
 * workspace itself. Files the checkpoint does not hold are skipped; nothing else in `target` is touched.
 */
export async function extractDirCheckpoint(
  input: CreateCheckpointInput,
  target: string,
  paths?: string[],
): Promise<void> {
  const archive = archivePath(input.stateDir, input.loopId, input.label);
  const manifest = await readManifest(manifestPath(archive));
  if (!manifest) throw new CheckpointNotFoundError(input.workspace, input.loopId, input.label);
  const held = (p: string): boolean => p in manifest.files || p in (manifest.links ?? {});
  const want = (paths ?? [...Object.keys(manifest.files), ...Object.keys(manifest.links ?? {})]).filter(held);
  if (!want.length) return;
  if (manifest.store === 'cas')
    await restoreFromStore(target, checkpointsDir(input.stateDir, input.loopId), manifest, want);
  else
    await execa('tar', ['-xzf', archive, '-C', target, '--touch', '--null', '--verbatim-files-from', '-T', '-'], {
      input: want.map((f) => `${f}\0`).join(''),
    });
}
