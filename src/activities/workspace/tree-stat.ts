/**
 * Proof that a work tree has not changed since a checkpoint, without starting git.
 *
 * A checkpoint of a small workspace costs three process starts (`sh`, `git add -A`, `git write-tree`) even when
 * nothing changed, and the pre-run checkpoint of iteration N+1 almost always finds the tree of iteration N's post-run
 * checkpoint again (only the completion check ran in between). So each checkpoint first lists the work tree (lstat of
 * every entry but `.git` and the state folder) BEFORE git reads it; the next checkpoint lists it again and, when both
 * listings are equal entry for entry (same paths, type, mode, size, inode, mtime and ctime), reuses the previous
 * checkpoint's commit. Listing before git runs is what makes this sound: a file changed while git was reading it shows
 * a different stat next time, so the proof fails and git runs.
 *
 * The one case stat data cannot see is git's "racy" case: a file rewritten with the same size within the timestamp
 * granularity of its previous write (a few ms on kernels with coarse timestamps). A file whose mtime or ctime is that
 * close to the listing is verified by content instead: its git blob id must equal the one the checkpoint recorded for
 * it (known for the files the checkpoint's diff names); any other racy file makes the proof fail.
 *
 * Work trees larger than {@link MAX_ENTRIES} entries (a node_modules folder, say) are never listed: git's own stat
 * cache is faster there. Everything here is conservative: an unexpected entry, error or difference means "run git".
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Most entries listed; a larger tree is left to git (and never listed again in this process). */
export const MAX_ENTRIES = 2000;
/** Files changed this close (ms) to a listing may change again unseen by stat (coarse timestamps): racy. */
export const RACY_MS = 20;

/** A listing of a work tree: workspace-relative posix path → stat signature. */
export interface TreeStat {
  /** Wall-clock time (ms) the listing started. */
  at: number;
  entries: Map<string, string>;
  /** Files (and symlinks) modified or changed within {@link RACY_MS} of the listing. */
  racy: string[];
}

/** Workspaces found too large to list, by path. */
const tooLarge = new Set<string>();

/**
 * Lists the work tree (`skip`: absolute paths left out, besides the top-level `.git`). Undefined when it has more than
 * {@link MAX_ENTRIES} entries or cannot be read.
 */
export function statWorkTree(workspace: string, skip: string[]): TreeStat | undefined {
  if (tooLarge.has(workspace)) return undefined;
  const at = Date.now();
  const entries = new Map<string, string>();
  const racy: string[] = [];
  const root = path.resolve(workspace);
  const skipped = new Set(skip.map((p) => path.resolve(p)));
  skipped.add(path.join(root, '.git'));
  const stack: string[] = [''];
  try {
    while (stack.length) {
      const rel = stack.pop()!;
      const abs = path.join(root, rel);
      for (const name of fs.readdirSync(abs)) {
        const childAbs = path.join(abs, name);
        if (skipped.has(childAbs)) continue;
        const childRel = rel ? `${rel}/${name}` : name;
        const st = fs.lstatSync(childAbs, { bigint: true });
        if (entries.size >= MAX_ENTRIES) {
          tooLarge.add(workspace);
          return undefined;
        }
        entries.set(childRel, `${st.mode}:${st.size}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`);
        if (st.isDirectory()) stack.push(childRel);
        else if (Number(st.mtimeNs / 1_000_000n) >= at - RACY_MS || Number(st.ctimeNs / 1_000_000n) >= at - RACY_MS)
          racy.push(childRel);
      }
    }
  } catch {
    return undefined;
  }
  return { at, entries, racy };
}

/** Git's blob id of some content, in the hash of `like` (another id: sha1, or sha256 for 64 hex digits). */
export function gitBlobId(content: Buffer, like: string): string {
  return crypto
    .createHash(like.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${content.length}\0`)
    .update(content)
    .digest('hex');
}

/** Git's blob id of a file's content (a symlink's: its target), or undefined when it cannot be read. */
function blobId(file: string, like: string): string | undefined {
  try {
    const st = fs.lstatSync(file);
    return gitBlobId(st.isSymbolicLink() ? Buffer.from(fs.readlinkSync(file)) : fs.readFileSync(file), like);
  } catch {
    return undefined;
  }
}

/**
 * Whether the work tree listed as `now` is the one listed as `then` (whose checkpoint recorded `blobs`, path → blob
 * id, for some files): every entry equal, and every file that was racy in `then` holding the recorded content.
 */
export function sameWorkTree(
  workspace: string,
  then: TreeStat,
  now: TreeStat,
  blobs: ReadonlyMap<string, string>,
): boolean {
  if (then.entries.size !== now.entries.size) return false;
  for (const [p, sig] of then.entries) if (now.entries.get(p) !== sig) return false;
  for (const p of then.racy) {
    const want = blobs.get(p);
    if (!want || blobId(path.join(workspace, p), want) !== want) return false;
  }
  return true;
}
