/**
 * The git store's index cache: each loop keeps its own index file (with a lock, a stat signature and an in-memory
 * view), so a checkpoint of an unchanged tree costs a stat walk instead of hashing the workspace again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkpointsDir, ensureCheckpointsDir } from './checkpoint-refs';
import { readIndex, type IndexView } from './index-file';
import { sameWorkTree, type TreeStat } from './tree-stat';
import type { CreateCheckpointHooks } from './checkpoint-refs';

export const STALE_REF_LOCK_MS = 5000;

export const statOrUndefined = (file: string): fs.Stats | undefined => {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
};

export function readMeta(file: string): IndexMeta | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as IndexMeta;
  } catch {
    return undefined;
  }
}

/** What the loop's persistent index last recorded: reused when the next checkpoint has the same tree. */
export interface IndexMeta {
  /** The user's index (and info/exclude) as they were when the persistent index was seeded from them. */
  seed: string;
  tree: string;
  commit: string;
  label: string;
}

/** Files of a loop's persistent git index, its metadata and its lock, under the loop's checkpoints folder. */
export const indexFiles = (stateDir: string, loopId: string) => {
  const dir = checkpointsDir(stateDir, loopId);
  return {
    dir,
    index: path.join(dir, '.git-index'),
    meta: path.join(dir, '.git-index.json'),
    lock: path.join(dir, '.git-index.ralph-lock'),
  };
};

/** Size, mtime, ctime and inode of a file, or '-' when it is absent: changes whenever git rewrites it. */
export async function statSig(file: string): Promise<string> {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}` : '-';
}

/**
 * Takes the loop's checkpoint lock (a file created exclusively). A lock whose holder is gone (dead pid) is taken
 * over. Returns a release function, or undefined when another live process holds it (hooks of parallel tool calls):
 * the caller then builds its checkpoint in a temporary index instead of waiting.
 */
export async function tryLock(lock: string): Promise<(() => Promise<void>) | undefined> {
  await ensureCheckpointsDir(path.dirname(lock));
  for (let attempt = 0; attempt < 2; attempt++) {
    // Synchronous, like the other small file operations of a checkpoint: no thread-pool round trip each.
    try {
      const fd = fs.openSync(lock, 'wx');
      try {
        fs.writeSync(fd, String(process.pid));
      } finally {
        fs.closeSync(fd);
      }
      return async () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid = 0;
      try {
        pid = Number(fs.readFileSync(lock, 'utf8'));
      } catch {
        // gone meanwhile
      }
      if (pid > 0 && pid !== process.pid && isAlive(pid)) return undefined;
      if (pid === process.pid) return undefined;
      fs.rmSync(lock, { force: true });
    }
  }
  return undefined;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The files of each loop's last checkpoint, by the loop's index file (this process only): its index as it was just
 * after `write-tree`, what the next checkpoint's diff starts from. Bounded by {@link MAX_CACHED_INDEX_BYTES} in all
 * (the least recently written go first); an index over {@link MAX_INDEX_BYTES} is left to `git diff-tree`.
 */
export const indexViews = new Map<string, { commit: string; view: IndexView }>();

export const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export const MAX_CACHED_INDEX_BYTES = 64 * 1024 * 1024;

export function forgetIndex(index: string): void {
  const old = indexViews.get(index);
  if (!old) return;
  cachedIndexBytes -= old.view.buf.length;
  indexViews.delete(index);
}

export function rememberIndex(index: string, commit: string, view: IndexView): void {
  forgetIndex(index);
  indexViews.set(index, { commit, view });
  cachedIndexBytes += view.buf.length;
  for (const key of indexViews.keys()) {
    if (cachedIndexBytes <= MAX_CACHED_INDEX_BYTES && indexViews.size <= MAX_LISTINGS) break;
    forgetIndex(key);
  }
}

/** A loop's index as a view, when it is SHA-1 (`tree` is its id), not too large and in a format we read. */
export function readIndexView(index: string, tree: string): IndexView | undefined {
  if (tree.length !== 40) return undefined;
  try {
    const fd = fs.openSync(index, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size > MAX_INDEX_BYTES) return undefined;
      const buf = Buffer.allocUnsafe(size);
      if (fs.readSync(fd, buf, 0, size, 0) !== size) return undefined;
      return readIndex(buf);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The work tree as listed before a loop's last checkpoint, by the loop's index file (this process only). */
export interface LastListing {
  listing: TreeStat;
  /** Blob ids the checkpoint's diff named, for files that were racy when listed. */
  blobs: Map<string, string>;
  seed: string;
  commit: string;
  tree: string;
  /** The index file's stat signature after that checkpoint: a hook checkpoint in between changes it. */
  index: string;
}

export const listings = new Map<string, LastListing>();

/** Listings kept (the most recently written; a worker runs ~100 loops at once): bounds memory over finished loops. */
export const MAX_LISTINGS = 500;

/**
 * The previous checkpoint of the loop again, when the work tree provably did not change since it was listed (and
 * neither did the loop's index, the user's index or exclude file, nor the commit `hooks.diffFrom` names, if any);
 * undefined otherwise (git decides).
 */
export async function unchangedSince(
  index: string,
  seed: string,
  meta: IndexMeta | undefined,
  now: TreeStat,
  workspace: string,
  hooks: CreateCheckpointHooks,
): Promise<{ commit: string; tree: string } | undefined> {
  const last = listings.get(index);
  if (!last || !meta || last.seed !== seed || last.commit !== meta.commit || last.tree !== meta.tree) return undefined;
  // A diff against another commit than this one would not be empty: let git compute it.
  if (hooks.diffFrom !== undefined && hooks.diffFrom !== last.commit) return undefined;
  if ((await statSig(index)) !== last.index) return undefined;
  if (!sameWorkTree(workspace, last.listing, now, last.blobs)) return undefined;
  hooks.onTree?.(last.tree, hooks.diffFrom !== undefined ? [] : undefined);
  return { commit: last.commit, tree: last.tree };
}

let cachedIndexBytes = 0;
