/**
 * The git store: a checkpoint is a commit of the workspace under refs/ralph/<loop>/<label>, written with a private
 * index (no change to the user's index, HEAD or branches), diffed and restored from there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeJsonAtomic } from '../../state/artifacts';
import { execProcess } from '../spawner';
import {
  forgetIndex,
  indexFiles,
  IndexMeta,
  indexViews,
  listings,
  MAX_LISTINGS,
  readIndexView,
  readMeta,
  rememberIndex,
  STALE_REF_LOCK_MS,
  statOrUndefined,
  statSig,
  tryLock,
  unchangedSince,
} from './checkpoint-index';
import {
  CheckpointNotFoundError,
  checkpointRef,
  COMMIT_ENV,
  CreateCheckpointInput,
  CreateCheckpointResult,
  plan,
  RALPH,
  RollbackToCheckpointInput,
  RollbackToCheckpointResult,
} from './checkpoint-refs';
import { commitText, repoAllowsLooseWrites, resolveHead, writeLooseObject, type RepoDirs } from './commit-object';
import { diffIndexes, type CommitChange, type IndexView } from './index-file';
import {
  baseEnv,
  git,
  gitHead,
  isStatePath,
  snapshotGit,
  STATE_DIR_NAME,
  WorkspaceGitError,
  type GitProbe,
} from './snapshot';
import { statWorkTree } from './tree-stat';
import type { CreateCheckpointHooks } from './checkpoint-refs';

/** Runs `fn` with a fresh, empty temporary index file; the user's own index is never read-modified-written. */
export async function withTempIndex<T>(fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-index-'));
  try {
    return await fn({ GIT_INDEX_FILE: path.join(dir, 'index') });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** A git workspace's layout, with HEAD's commit when known (undefined: resolve `HEAD` when it is needed). */
export type GitLayout = Omit<GitProbe, 'head'> & { head: string | null | undefined };

export async function createGitCheckpoint(
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
export const filesBackend = new Map<string, boolean>();

/**
 * Points `ref` at `commit` as git's `files` ref backend does (a `<ref>.lock` created exclusively, then renamed over
 * the ref), without starting `git update-ref`. Only when the repository keeps loose refs (no `extensions.refStorage`
 * other than `files` in its config) and has no `reference-transaction` hook to run; false (nothing written) whenever
 * anything is unexpected, and the caller runs git instead.
 */
export async function writeLooseRef(
  workspace: string,
  layout: GitLayout,
  ref: string,
  commit: string,
): Promise<boolean> {
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
export async function gitCheckpoint(
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
 * `git add -A` into the index at `env.GIT_INDEX_FILE` (seeding it from the user's index when `prev` is undefined),
 * `write-tree`, and `commit-tree` unless the tree is `prev`'s.
 */
export async function buildCommit(
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

/**
 * What changed between two commits under the workspace, paths relative to it (one `git diff-tree`, no file listing).
 * The state folder and submodules are left out.
 */
export async function diffCommits(workspace: string, from: string, to: string): Promise<CommitChange[]> {
  return parseDiffTree(await git(workspace, ['diff-tree', '-r', '-z', '--no-renames', '--relative', from, to]));
}

/** Parses `git diff-tree -r -z --no-renames` output (state folder and submodules left out). */
export function parseDiffTree(out: string): CommitChange[] {
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
export const WRITE_TREE_FAILED = 97;

export const DIFF_TREE_FAILED = 98;

/**
 * `git add -A` of the workspace without the state folder into the given index, then `git write-tree` (and, given
 * `diffFrom`, `git diff-tree` from that commit to the new tree), all from one `sh`: one process started from the worker
 * instead of three, since each start costs more than any of these commands on a small repository. Returns the paths
 * `add` staged or removed (from `--verbose`), the tree and the diff. Git stages everything else but exits 1 when
 * `.gitignore` already ignores the excluded folder ("The following paths are ignored..."): that exact complaint is not
 * a failure.
 */
export async function addAndWriteTree(
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
export interface NewCommit {
  message: string;
  /** Parent commit (or `HEAD`); none for a repository without commits. */
  parent: string | null;
  unlessTree?: string;
}

/** Removes files, then the folders that removal left empty (up to, not including, the workspace). */
export async function removeFiles(workspace: string, paths: string[]): Promise<void> {
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

export async function rollbackGit(
  input: RollbackToCheckpointInput,
  prefix: string,
): Promise<RollbackToCheckpointResult> {
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
