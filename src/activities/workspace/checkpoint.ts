import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { diffSnapshots, type SnapshotKind, type WorkspaceSnapshot } from '../../core/snapshot-diff';
import { loopDir, writeJsonAtomic } from '../../state/artifacts';
import { readObject, restoreFromStore, scanDir, storeSnapshot, type StoreManifest } from './checkpoint-store';
import { execProcess } from '../spawner';
import { sameWorkTree, statWorkTree, type TreeStat } from './tree-stat';
import { diffIndexes, readIndex, type CommitChange, type IndexView } from './index-file';
import { commitText, repoAllowsLooseWrites, resolveHead, writeLooseObject, type RepoDirs } from './commit-object';
import {
  STATE_DIR_NAME,
  baseEnv,
  git,
  gitHead,
  gitProbe,
  type GitProbe,
  gitPrefix,
  isStatePath,
  snapshotGit,
  WorkspaceGitError,
} from './snapshot';

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

/** Thrown when a rollback names a checkpoint that does not exist. */
export class CheckpointNotFoundError extends Error {
  override readonly name = 'CheckpointNotFoundError';
  constructor(
    readonly workspace: string,
    readonly loopId: string,
    readonly label: string,
  ) {
    super(`no checkpoint '${label}' of loop '${loopId}' in ${workspace}`);
  }
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
const archivePath = (stateDir: string, loopId: string, label: string): string =>
  path.join(checkpointsDir(stateDir, loopId), `${refComponent(label)}.tar.gz`);
const manifestPath = (archive: string): string => archive.replace(/\.tar\.gz$/, '.json');

// Fixed identity: checkpoints must work on machines with no user.name/user.email configured.
/** Who checkpoint commits are by (commit-object.ts writes the same identity as git with {@link COMMIT_ENV}). */
const RALPH = { name: 'ralph', email: 'ralph@localhost' };
const COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'ralph',
  GIT_AUTHOR_EMAIL: 'ralph@localhost',
  GIT_COMMITTER_NAME: 'ralph',
  GIT_COMMITTER_EMAIL: 'ralph@localhost',
};

/** A plain folder's checkpoint manifest (content in the store, or in a tar.gz next to it for older ones). */
type ArchiveManifest = StoreManifest;

async function readManifest(file: string): Promise<ArchiveManifest | undefined> {
  try {
    const m = JSON.parse(await fs.promises.readFile(file, 'utf8')) as ArchiveManifest;
    return typeof m?.label === 'string' && m.files && typeof m.files === 'object' ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `fn` with a fresh, empty temporary index file; the user's own index is never read-modified-written. */
async function withTempIndex<T>(fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-index-'));
  try {
    return await fn({ GIT_INDEX_FILE: path.join(dir, 'index') });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

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

/** A git workspace's layout, with HEAD's commit when known (undefined: resolve `HEAD` when it is needed). */
type GitLayout = Omit<GitProbe, 'head'> & { head: string | null | undefined };

async function createGitCheckpoint(
  input: CreateCheckpointInput,
  layout: GitLayout,
  hooks: CreateCheckpointHooks,
): Promise<CreateCheckpointResult> {
  const ref = checkpointRef(input.loopId, input.label);
  const { commit, tree } = await gitCheckpoint(input, layout, hooks);
  if (!(await writeLooseRef(input.workspace, layout, ref, commit)))
    await git(input.workspace, ['update-ref', ref, commit]);
  return { ref, commit, tree, kind: 'git' };
}

/** Per common folder: whether its refs are loose files (the `files` backend, not reftable). */
const filesBackend = new Map<string, boolean>();

/**
 * Points `ref` at `commit` as git's `files` ref backend does (a `<ref>.lock` created exclusively, then renamed over
 * the ref), without starting `git update-ref`. Only when the repository keeps loose refs (no `extensions.refStorage`
 * other than `files` in its config) and has no `reference-transaction` hook to run; false (nothing written) whenever
 * anything is unexpected, and the caller runs git instead.
 */
async function writeLooseRef(workspace: string, layout: GitLayout, ref: string, commit: string): Promise<boolean> {
  if (!layout.commonDir || !/^refs\/ralph\/[^/]+\/[^/]+$/.test(ref)) return false;
  const common = path.resolve(workspace, layout.commonDir);
  let files = filesBackend.get(common);
  if (files === undefined) {
    const config = await fs.promises.readFile(path.join(common, 'config'), 'utf8').catch(() => undefined);
    const storage = config === undefined ? undefined : /^\s*refstorage\s*=\s*"?([A-Za-z]+)/im.exec(config)?.[1];
    files = config !== undefined && (storage === undefined || storage.toLowerCase() === 'files');
    filesBackend.set(common, files);
  }
  if (!files || !layout.refHookPath || fs.existsSync(path.resolve(workspace, layout.refHookPath))) return false;
  const file = path.join(common, ...ref.split('/'));
  const lock = `${file}.lock`;
  // Synchronous: a few tiny file operations, cheaper than as many round trips through libuv's thread pool.
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let fd: number;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch (e) {
      // Only this loop writes its refs: a lock older than a few seconds was left by a killed worker.
      const st = (e as NodeJS.ErrnoException).code === 'EEXIST' ? statOrUndefined(lock) : undefined;
      if (!st || Date.now() - st.mtimeMs < STALE_REF_LOCK_MS) throw e;
      fs.rmSync(lock, { force: true });
      fd = fs.openSync(lock, 'wx');
    }
    try {
      fs.writeSync(fd, `${commit}\n`);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(lock, file);
    return true;
  } catch (e) {
    // Someone else's lock stays; ours goes.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') fs.rmSync(lock, { force: true });
    return false;
  }
}
const STALE_REF_LOCK_MS = 5000;

const statOrUndefined = (file: string): fs.Stats | undefined => {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
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

function readMeta(file: string): IndexMeta | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as IndexMeta;
  } catch {
    return undefined;
  }
}

/** What the loop's persistent index last recorded: reused when the next checkpoint has the same tree. */
interface IndexMeta {
  /** The user's index (and info/exclude) as they were when the persistent index was seeded from them. */
  seed: string;
  tree: string;
  commit: string;
  label: string;
}

/** Files of a loop's persistent git index, its metadata and its lock, under the loop's checkpoints folder. */
const indexFiles = (stateDir: string, loopId: string) => {
  const dir = checkpointsDir(stateDir, loopId);
  return {
    dir,
    index: path.join(dir, '.git-index'),
    meta: path.join(dir, '.git-index.json'),
    lock: path.join(dir, '.git-index.ralph-lock'),
  };
};

/** Size, mtime, ctime and inode of a file, or '-' when it is absent: changes whenever git rewrites it. */
async function statSig(file: string): Promise<string> {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}` : '-';
}

/**
 * Takes the loop's checkpoint lock (a file created exclusively). A lock whose holder is gone (dead pid) is taken
 * over. Returns a release function, or undefined when another live process holds it (hooks of parallel tool calls):
 * the caller then builds its checkpoint in a temporary index instead of waiting.
 */
async function tryLock(lock: string): Promise<(() => Promise<void>) | undefined> {
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

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Builds a checkpoint commit of a git workspace. The loop keeps its own index file under its checkpoints folder
 * (never the user's): seeded once from a copy of the user's index, it keeps git's stat cache from one checkpoint to
 * the next, so `git add -A` re-hashes only what changed since the previous checkpoint (as `git status` does), and
 * `write-tree` reuses the unchanged subtrees. When the tree equals the previous checkpoint's (a pre-run checkpoint
 * right after the previous iteration's post-run one), that commit is reused: no new commit. The index is seeded again
 * whenever the user's index or `.git/info/exclude` changed, or a `.gitignore` changed (a file ignored since must leave
 * the checkpoint, as it would from a fresh copy of the user's index). Another process holding the loop's lock (a hook
 * checkpoint during the run) gets a temporary index instead.
 */
async function gitCheckpoint(
  input: CreateCheckpointInput,
  probe: GitLayout,
  hooks: CreateCheckpointHooks,
): Promise<{ commit: string; tree: string }> {
  const { workspace, stateDir, loopId, label } = input;
  const f = indexFiles(stateDir, loopId);
  const userIndex = path.resolve(workspace, probe.indexPath);
  const release = await tryLock(f.lock);
  if (!release)
    return withTempIndex((env) => buildCommit(workspace, env, userIndex, probe.head, label, undefined, hooks));
  try {
    // Our own lock is held: an index.lock left there is from a git killed mid-write.
    fs.rmSync(`${f.index}.lock`, { force: true });
    const seed = `${await statSig(userIndex)}|${await statSig(path.resolve(workspace, probe.excludePath))}`;
    const meta = readMeta(f.meta);
    const fresh = !meta || meta.seed !== seed || !fs.existsSync(f.index);
    // Listed before git reads the tree (see tree-stat.ts): the proof the next checkpoint may reuse this one.
    const listing =
      hooks.listTree === false ? undefined : statWorkTree(workspace, [path.join(workspace, STATE_DIR_NAME), stateDir]);
    if (!fresh && listing) {
      const reused = await unchangedSince(f.index, seed, meta, listing, workspace, hooks);
      if (reused) return reused;
    }
    listings.delete(f.index);
    // The meta goes first: a crash between the index write and the meta write must not leave a trusted, stale meta.
    fs.rmSync(f.meta, { force: true });
    const env = { GIT_INDEX_FILE: f.index };
    let diff: CommitChange[] | undefined;
    // The files of the commit to diff against, read from this index after that commit's checkpoint: the diff then
    // comes from reading the index again after write-tree, and the script runs no `git diff-tree`.
    const known = indexViews.get(f.index);
    const before = hooks.diffFrom !== undefined && known?.commit === hooks.diffFrom ? known.view : undefined;
    let after: IndexView | undefined;
    const dirs = probe.commonDir
      ? {
          gitDir: path.dirname(path.resolve(workspace, probe.indexPath)),
          commonDir: path.resolve(workspace, probe.commonDir),
        }
      : undefined;
    const r = await buildCommit(
      workspace,
      env,
      userIndex,
      probe.head,
      label,
      fresh ? undefined : meta,
      {
        ...hooks,
        diffFrom: before ? undefined : hooks.diffFrom,
        onTree: (tree, d) => {
          after = readIndexView(f.index, tree);
          diff = d ?? (before && after ? diffIndexes(before, after, probe.prefix, isStatePath) : undefined);
          hooks.onTree?.(tree, diff);
        },
      },
      dirs && (await repoAllowsLooseWrites(dirs)) ? dirs : undefined,
    );
    if (after) rememberIndex(f.index, r.commit, after);
    else forgetIndex(f.index);
    writeJsonAtomic(f.meta, { seed, tree: r.tree, commit: r.commit, label } satisfies IndexMeta);
    if (listing) {
      const blobs = new Map<string, string>();
      for (const c of diff ?? []) if (c.after) blobs.set(c.path, c.after);
      listings.set(f.index, { listing, blobs, seed, commit: r.commit, tree: r.tree, index: await statSig(f.index) });
      if (listings.size > MAX_LISTINGS) listings.delete(listings.keys().next().value!);
    }
    return r;
  } catch (e) {
    // A damaged index is rebuilt from the user's next time.
    await fs.promises.rm(f.index, { force: true });
    throw e;
  } finally {
    await release();
  }
}

/**
 * The files of each loop's last checkpoint, by the loop's index file (this process only): its index as it was just
 * after `write-tree`, what the next checkpoint's diff starts from. Bounded by {@link MAX_CACHED_INDEX_BYTES} in all
 * (the least recently written go first); an index over {@link MAX_INDEX_BYTES} is left to `git diff-tree`.
 */
const indexViews = new Map<string, { commit: string; view: IndexView }>();
let cachedIndexBytes = 0;
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
const MAX_CACHED_INDEX_BYTES = 64 * 1024 * 1024;

function forgetIndex(index: string): void {
  const old = indexViews.get(index);
  if (!old) return;
  cachedIndexBytes -= old.view.buf.length;
  indexViews.delete(index);
}

function rememberIndex(index: string, commit: string, view: IndexView): void {
  forgetIndex(index);
  indexViews.set(index, { commit, view });
  cachedIndexBytes += view.buf.length;
  for (const key of indexViews.keys()) {
    if (cachedIndexBytes <= MAX_CACHED_INDEX_BYTES && indexViews.size <= MAX_LISTINGS) break;
    forgetIndex(key);
  }
}

/** A loop's index as a view, when it is SHA-1 (`tree` is its id), not too large and in a format we read. */
function readIndexView(index: string, tree: string): IndexView | undefined {
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
interface LastListing {
  listing: TreeStat;
  /** Blob ids the checkpoint's diff named, for files that were racy when listed. */
  blobs: Map<string, string>;
  seed: string;
  commit: string;
  tree: string;
  /** The index file's stat signature after that checkpoint: a hook checkpoint in between changes it. */
  index: string;
}
const listings = new Map<string, LastListing>();
/** Listings kept (the most recently written; a worker runs ~100 loops at once): bounds memory over finished loops. */
const MAX_LISTINGS = 500;

/**
 * The previous checkpoint of the loop again, when the work tree provably did not change since it was listed (and
 * neither did the loop's index, the user's index or exclude file, nor the commit `hooks.diffFrom` names, if any);
 * undefined otherwise (git decides).
 */
async function unchangedSince(
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

/**
 * `git add -A` into the index at `env.GIT_INDEX_FILE` (seeding it from the user's index when `prev` is undefined),
 * `write-tree`, and `commit-tree` unless the tree is `prev`'s.
 */
async function buildCommit(
  workspace: string,
  env: Record<string, string>,
  userIndex: string,
  head: string | null | undefined,
  label: string,
  prev: IndexMeta | undefined,
  hooks: CreateCheckpointHooks,
  /** Set when this process may write the commit object itself (commit-object.ts). */
  dirs?: RepoDirs,
): Promise<{ commit: string; tree: string }> {
  const seedIndex = async (): Promise<void> => {
    // Starting from a copy of the user's index keeps its stat data, so `add -A` re-hashes only changed files
    // (a fresh read-tree of HEAD has no stat data, so every file would be read and hashed again).
    const st = await fs.promises.stat(userIndex).catch(() => undefined);
    if (st) {
      await fs.promises.copyFile(userIndex, env.GIT_INDEX_FILE);
      // Same mtime as the original, so git's racy-entry check judges the copied entries exactly as it would there.
      await fs.promises.utimes(env.GIT_INDEX_FILE, st.atime, st.mtime);
      return;
    }
    await fs.promises.rm(env.GIT_INDEX_FILE, { force: true });
    const h = head === undefined ? await gitHead(workspace) : head;
    await git(workspace, ['read-tree', ...(h ? [h] : ['--empty'])], { env });
  };
  if (!prev) await seedIndex();
  const message = `ralph checkpoint ${label}`;
  // The commit is written by this process when the repository allows (no git at all), else by the script's
  // commit-tree (one start fewer than running it apart); HEAD unknown yet: the script names it, and before the first
  // commit the fallback below handles it.
  const newCommit: NewCommit | undefined = dirs
    ? undefined
    : { message, parent: head === undefined ? 'HEAD' : head, unlessTree: prev?.tree };
  let added = await addAndWriteTree(workspace, env, hooks.diffFrom, newCommit);
  if (prev && added.changed.some((p) => path.posix.basename(p) === '.gitignore')) {
    await seedIndex();
    added = await addAndWriteTree(workspace, env, hooks.diffFrom, newCommit);
  }
  const { tree, diff } = added;
  hooks.onTree?.(tree, diff);
  if (prev && prev.tree === tree) return { commit: prev.commit, tree };
  if (added.commit) return { commit: added.commit, tree };
  if (dirs && tree.length === 40) {
    const parent = head !== undefined ? head : await resolveHead(dirs);
    if (parent !== undefined)
      return {
        commit: await writeLooseObject(dirs.commonDir, 'commit', commitText(tree, parent, message, RALPH, new Date())),
        tree,
      };
  }
  const commitTree = (parent: string | null): Promise<string> =>
    git(
      workspace,
      ['commit-tree', '--no-gpg-sign', ...(parent ? ['-p', parent] : []), '-m', `ralph checkpoint ${label}`, tree],
      { env: { ...env, ...COMMIT_ENV } },
    ).then((o) => o.trim());
  if (head !== undefined) return { commit: await commitTree(head), tree };
  try {
    return { commit: await commitTree('HEAD'), tree };
  } catch (e) {
    // Before the first commit there is no HEAD to hang the checkpoint off.
    if ((e as Error).name !== 'WorkspaceGitError' || (await gitHead(workspace)) !== null) throw e;
    return { commit: await commitTree(null), tree };
  }
}

export type { CommitChange } from './index-file';

/**
 * What changed between two commits under the workspace, paths relative to it (one `git diff-tree`, no file listing).
 * The state folder and submodules are left out.
 */
export async function diffCommits(workspace: string, from: string, to: string): Promise<CommitChange[]> {
  return parseDiffTree(await git(workspace, ['diff-tree', '-r', '-z', '--no-renames', '--relative', from, to]));
}

/** Parses `git diff-tree -r -z --no-renames` output (state folder and submodules left out). */
function parseDiffTree(out: string): CommitChange[] {
  const parts = out.split('\0');
  const changes: CommitChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i];
    if (!meta.startsWith(':')) break;
    const [oldMode, newMode, before, after, st] = meta.slice(1).split(' ');
    const p = parts[i + 1];
    if (isStatePath(p) || oldMode === '160000' || newMode === '160000') continue;
    const status = st[0] === 'A' ? 'A' : st[0] === 'D' ? 'D' : 'M';
    changes.push({
      path: p,
      status,
      before: status === 'A' ? undefined : before,
      after: status === 'D' ? undefined : after,
    });
  }
  return changes;
}

/** Exit codes of the script of {@link addAndWriteTree} when `write-tree` or `diff-tree` failed (after `add` ran). */
const WRITE_TREE_FAILED = 97;
const DIFF_TREE_FAILED = 98;

/**
 * `git add -A` of the workspace without the state folder into the given index, then `git write-tree` (and, given
 * `diffFrom`, `git diff-tree` from that commit to the new tree), all from one `sh`: one process started from the worker
 * instead of three, since each start costs more than any of these commands on a small repository. Returns the paths
 * `add` staged or removed (from `--verbose`), the tree and the diff. Git stages everything else but exits 1 when
 * `.gitignore` already ignores the excluded folder ("The following paths are ignored..."): that exact complaint is not
 * a failure.
 */
async function addAndWriteTree(
  workspace: string,
  env: Record<string, string>,
  diffFrom?: string,
  commit?: NewCommit,
): Promise<{ changed: string[]; tree: string; diff?: CommitChange[]; commit?: string }> {
  const addArgs = ['add', '-A', '--verbose', '--', '.', `:(exclude)${STATE_DIR_NAME}`];
  // The commit, when asked for and the tree is new: its line is `c <id>`, or `c -` when commit-tree failed (no HEAD
  // yet, say), and the caller then runs it itself with the error reported.
  const script =
    `git "$@"; s=$?; t=$(git write-tree) || exit ${WRITE_TREE_FAILED}; echo "$t"; ` +
    `if [ -n "$RALPH_COMMIT_MSG" ] && [ "$t" != "$RALPH_PREV_TREE" ]; then ` +
    `if c=$(git commit-tree --no-gpg-sign $RALPH_PARENT -m "$RALPH_COMMIT_MSG" "$t" 2>/dev/null); ` +
    `then echo "c $c"; else echo "c -"; fi; fi; ` +
    `if [ -n "$RALPH_DIFF_FROM" ]; then printf '\\000'; ` +
    `git diff-tree -r -z --no-renames --relative "$RALPH_DIFF_FROM" "$t" || exit ${DIFF_TREE_FAILED}; fi; exit $s`;
  const r = await execProcess('sh', ['-c', script, 'sh', ...addArgs], {
    cwd: workspace,
    env: {
      ...baseEnv(),
      ...env,
      ...(commit ? COMMIT_ENV : {}),
      RALPH_DIFF_FROM: diffFrom ?? '',
      RALPH_COMMIT_MSG: commit?.message ?? '',
      RALPH_PREV_TREE: commit?.unlessTree ?? '',
      RALPH_PARENT: commit?.parent ? `-p ${commit.parent}` : '',
    },
  });
  const out = r.stdout.toString('utf8');
  const stderr = r.spawnError ? `could not run sh: ${r.spawnError}` : r.stderr.toString('utf8');
  if (r.exitCode === WRITE_TREE_FAILED) throw new WorkspaceGitError(workspace, ['write-tree'], r.exitCode, stderr);
  if (r.exitCode === DIFF_TREE_FAILED)
    throw new WorkspaceGitError(workspace, ['diff-tree', diffFrom ?? ''], r.exitCode, stderr);
  if (r.exitCode !== 0) {
    const onlyIgnored =
      r.exitCode === 1 && /following paths are ignored/.test(stderr) && !/^(fatal|error):/m.test(stderr);
    if (!onlyIgnored) throw new WorkspaceGitError(workspace, addArgs, r.exitCode, stderr);
  }
  const nul = diffFrom ? out.indexOf('\0') : -1;
  const lines = (nul >= 0 ? out.slice(0, nul) : out).split('\n').filter(Boolean);
  const commitLine = commit && lines.length && lines[lines.length - 1].startsWith('c ') ? lines.pop()!.slice(2) : '';
  const made = /^[0-9a-f]{40,64}$/.test(commitLine) ? commitLine : undefined;
  const tree = lines.pop() ?? '';
  if (!/^[0-9a-f]{40,64}$/.test(tree))
    throw new WorkspaceGitError(workspace, ['write-tree'], r.exitCode, stderr || out);
  // "add 'path'" / "remove 'path'"; git quotes unusual names C-style, which only needs the basename test to work.
  const changed = lines.map((l) => /^(?:add|remove) '(.*)'$/.exec(l)?.[1]).filter((p): p is string => p !== undefined);
  return { changed, tree, diff: nul >= 0 ? parseDiffTree(out.slice(nul + 1)) : undefined, commit: made };
}

/** The commit {@link addAndWriteTree} records with the tree, unless the tree is `unlessTree`. */
interface NewCommit {
  message: string;
  /** Parent commit (or `HEAD`); none for a repository without commits. */
  parent: string | null;
  unlessTree?: string;
}

/** Removes files, then the folders that removal left empty (up to, not including, the workspace). */
async function removeFiles(workspace: string, paths: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const p of paths) {
    await fs.promises.rm(path.join(workspace, p), { force: true });
    for (let d = path.posix.dirname(p); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  }
  // Deepest first, so a parent is tried after its children.
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    await fs.promises.rmdir(path.join(workspace, d)).catch(() => undefined);
  }
}

/** What to do to turn `current` into `target`: files to write from the target, files to delete. */
function plan(current: WorkspaceSnapshot['files'], target: WorkspaceSnapshot['files']): RollbackToCheckpointResult {
  const d = diffSnapshots({ files: target }, { files: current });
  return { restored: [...d.modified, ...d.deleted].sort(), removed: d.added };
}

/** The files of a checkpoint commit under the workspace, with their blob ids (gitlinks and the state folder left out). */
export async function treeFiles(workspace: string, commit: string): Promise<Record<string, string>> {
  const out = await git(workspace, ['ls-tree', '-r', '-z', commit, '--', '.']);
  const files = new Map<string, string>();
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [, type, hash] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    if (type === 'blob' && !isStatePath(p)) files.set(p, hash);
  }
  return Object.fromEntries(files);
}

async function rollbackGit(input: RollbackToCheckpointInput, prefix: string): Promise<RollbackToCheckpointResult> {
  const { workspace, loopId, label } = input;
  let commit: string;
  try {
    commit = (await git(workspace, ['rev-parse', '-q', '--verify', `${checkpointRef(loopId, label)}^{commit}`])).trim();
  } catch (e) {
    if ((e as WorkspaceGitError).name === 'WorkspaceGitError')
      throw new CheckpointNotFoundError(workspace, loopId, label);
    throw e;
  }
  const target = await treeFiles(workspace, commit);
  const restored = new Set<string>();
  const removed = new Set<string>();
  // A second pass only when a restored .gitignore changed what counts as untracked-not-ignored.
  for (let pass = 0; pass < 2; pass++) {
    const p = plan((await snapshotGit(workspace, prefix)).files, target);
    if (!p.restored.length && !p.removed.length) break;
    await removeFiles(workspace, p.removed);
    if (p.restored.length) {
      await withTempIndex(async (env) => {
        await git(workspace, ['read-tree', commit], { env });
        await git(workspace, ['checkout-index', '-f', '-z', '--stdin'], {
          env,
          input: p.restored.map((f) => `${f}\0`).join(''),
        });
      });
    }
    p.restored.forEach((f) => restored.add(f));
    p.removed.forEach((f) => removed.add(f));
    if (![...p.restored, ...p.removed].some((f) => path.posix.basename(f) === '.gitignore')) break;
  }
  return { restored: [...restored].sort(), removed: [...removed].sort() };
}

async function rollbackDir(input: RollbackToCheckpointInput): Promise<RollbackToCheckpointResult> {
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
