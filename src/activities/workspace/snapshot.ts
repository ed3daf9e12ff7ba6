import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execProcess } from '../spawner';
import type { WorkspaceSnapshot } from '../../core/snapshot-diff';
import { WorkspaceGitError } from '../errors';

export type { WorkspaceSnapshot } from '../../core/snapshot-diff';

/** Input of {@link snapshotWorkspace}. */
export interface SnapshotWorkspaceInput {
  /** Absolute path of the workspace (a git work tree, a folder inside one, or a plain folder). */
  workspace: string;
}

/** Result of {@link snapshotWorkspace}. */
export type SnapshotWorkspaceResult = WorkspaceSnapshot;

/** Folder names never included in a plain-folder snapshot or archive, at any depth. */
export const DIR_SKIP = new Set(['.git', '.ralph', 'node_modules']);

/** The loop's default state folder, relative to the workspace: never part of a snapshot or checkpoint. */
export const STATE_DIR_NAME = '.ralph';

/** Git pathspec excluding the state folder (relative to the cwd, which is always the workspace). */
export const EXCLUDE_STATE_PATHSPEC = `:(exclude)${STATE_DIR_NAME}`;

/** True for a workspace-relative path inside the state folder. */
export const isStatePath = (p: string): boolean => p === STATE_DIR_NAME || p.startsWith(`${STATE_DIR_NAME}/`);

// The parent's GIT_DIR/GIT_INDEX_FILE (e.g. a worker started from a git hook) would point git at another repo;
// GIT_OPTIONAL_LOCKS=0 stops `git status` from refreshing (writing) the user's index behind the agent's back.
export const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR']) delete env[k];
  return env;
};

/** Options of {@link git}. */
export interface GitOptions {
  env?: Record<string, string>;
  input?: string;
}

/** Runs git in `cwd` and returns its stdout (untrimmed); throws {@link WorkspaceGitError} on failure. */
export async function git(cwd: string, args: string[], o: GitOptions = {}): Promise<string> {
  const r = await gitResult(cwd, args, o);
  if (r.exitCode !== 0) throw new WorkspaceGitError(cwd, args, r.exitCode, r.stderr);
  return r.stdout;
}

/** Output of a git command that may fail: see {@link gitResult}. */
export interface GitResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs git in `cwd` like {@link git}, but returns the exit code, stdout and stderr instead of throwing. */
export async function gitResult(cwd: string, args: string[], o: GitOptions = {}): Promise<GitResult> {
  const r = await execProcess('git', args, { cwd, env: { ...baseEnv(), ...o.env }, input: o.input });
  return {
    exitCode: r.exitCode,
    stdout: r.stdout.toString('utf8'),
    stderr: r.spawnError ? `could not run git: ${r.spawnError}` : r.stderr.toString('utf8'),
  };
}

/** What a checkpoint needs to know about a workspace's git repository, from a single `git rev-parse`. */
export interface GitProbe {
  /** The workspace is inside a git work tree. */
  inside: boolean;
  /** The index file, relative to the workspace (or absolute). */
  indexPath: string;
  /** HEAD's commit; null before the first commit. */
  head: string | null;
  /** The repository's `info/exclude` file, relative to the workspace (or absolute). */
  excludePath: string;
  /** The repository's common folder (refs, objects, config), relative to the workspace (or absolute). */
  commonDir: string;
  /** Where git looks for a `reference-transaction` hook (core.hooksPath honoured), relative or absolute. */
  refHookPath: string;
  /** The workspace's path inside its work tree: '' at the top, 'sub/dir/' below it. */
  prefix: string;
}

/** Answers "git work tree?", "which index?" and "which HEAD?" with one process (it exits 1 before the first commit). */
export async function gitProbe(workspace: string): Promise<GitProbe> {
  const r = await execProcess(
    'git',
    [
      'rev-parse',
      '--is-inside-work-tree',
      '--git-path',
      'index',
      '--git-path',
      'info/exclude',
      '--git-common-dir',
      '--git-path',
      'hooks/reference-transaction',
      '--show-prefix',
      '--verify',
      '-q',
      'HEAD^{commit}',
    ],
    { cwd: workspace, env: baseEnv() },
  ).catch(() => ({ stdout: Buffer.alloc(0) }));
  const [inside, indexPath, excludePath, commonDir, refHookPath, prefix, head] = String(r.stdout ?? '').split('\n');
  return {
    inside: inside === 'true',
    indexPath: indexPath ?? '',
    excludePath: excludePath ?? '',
    commonDir: commonDir ?? '',
    refHookPath: refHookPath ?? '',
    prefix: prefix ?? '',
    head: head?.trim() || null,
  };
}

/** HEAD's commit, or null before the first commit. */
export async function gitHead(cwd: string): Promise<string | null> {
  try {
    return (await git(cwd, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'])).trim() || null;
  } catch (e) {
    if ((e as WorkspaceGitError).name === 'WorkspaceGitError') return null;
    throw e;
  }
}

/**
 * The workspace's path inside its git work tree ('' at the top, 'sub/dir/' below it), or null when the workspace is
 * not in a git work tree (or git is not installed).
 */
export async function gitPrefix(workspace: string): Promise<string | null> {
  try {
    const [inside, prefix] = (await git(workspace, ['rev-parse', '--is-inside-work-tree', '--show-prefix'])).split(
      '\n',
    );
    return inside === 'true' ? (prefix ?? '') : null;
  } catch {
    return null;
  }
}

/** Git's blob id of some content: sha1 of `blob <size>\0<content>`. */
export function blobHash(content: Buffer | string): string {
  const buf = typeof content === 'string' ? Buffer.from(content) : content;
  return crypto.createHash('sha1').update(`blob ${buf.length}\0`).update(buf).digest('hex');
}

/** Runs `fn` over items with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Lists a plain folder's files (and symlinks) as posix paths relative to `root`, skipping {@link DIR_SKIP} folders at
 * any depth and the absolute paths in `skipAbs` (a state folder placed elsewhere inside the workspace).
 */
export async function walkDir(root: string, skipAbs: string[] = []): Promise<string[]> {
  const out: string[] = [];
  const skip = new Set(skipAbs.map((p) => path.resolve(p)));
  const visit = async (rel: string): Promise<void> => {
    const abs = path.join(root, rel);
    const entries = await fs.promises.readdir(abs, { withFileTypes: true });
    const subdirs: string[] = [];
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip.has(path.join(root, r))) continue;
      if (e.isDirectory()) {
        if (!DIR_SKIP.has(e.name)) subdirs.push(r);
      } else if (e.isFile() || e.isSymbolicLink()) out.push(r);
    }
    await mapLimit(subdirs, 8, visit);
  };
  await visit('');
  return out;
}

/** Blob id of a file as git would store it without filters: a symlink hashes its target, like git. */
async function hashFile(abs: string): Promise<string> {
  const st = await fs.promises.lstat(abs);
  return blobHash(st.isSymbolicLink() ? await fs.promises.readlink(abs) : await fs.promises.readFile(abs));
}

/** Snapshot of a plain folder: {@link walkDir}, then each file's blob id (no git needed). */
export async function snapshotDir(workspace: string, skipAbs: string[] = []): Promise<WorkspaceSnapshot> {
  const paths = await walkDir(workspace, skipAbs);
  const hashes = await mapLimit(paths, 32, (p) => hashFile(path.join(workspace, p)));
  return { kind: 'dir', head: null, files: Object.fromEntries(paths.map((p, i) => [p, hashes[i]])) };
}

/** Splits NUL-terminated git output into records. */
const records = (out: string): string[] => out.split('\0').filter((s) => s.length > 0);

/**
 * The workspace's files as git sees them. Three git processes whatever the repo size: the index's blob ids
 * (`ls-files -s`) are right for every clean tracked file; `status` names the dirty and untracked ones, which one
 * batched `hash-object --stdin-paths` hashes (applying the repo's clean filters, as `git add` would).
 */
export async function snapshotGit(
  workspace: string,
  prefix: string,
  knownHead?: string | null,
): Promise<WorkspaceSnapshot> {
  const spec = ['--', '.', EXCLUDE_STATE_PATHSPEC];
  const [head, lsOut, statusOut] = await Promise.all([
    knownHead === undefined ? gitHead(workspace) : knownHead,
    git(workspace, ['ls-files', '-s', '-z', ...spec]),
    git(workspace, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', ...spec]),
  ]);
  const files = new Map<string, string>();
  for (const rec of records(lsOut)) {
    const tab = rec.indexOf('\t');
    const [mode, hash] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    // Gitlinks (submodules) are another repo's business.
    if (mode !== '160000' && !isStatePath(p)) files.set(p, hash);
  }
  const dirty = new Set<string>();
  const recs = records(statusOut);
  for (let i = 0; i < recs.length; i++) {
    const xy = recs[i].slice(0, 2);
    // Porcelain paths are relative to the repo's top, whatever the cwd.
    const top = recs[i].slice(3);
    if (top.startsWith(prefix)) dirty.add(top.slice(prefix.length));
    // A rename or copy is followed by its source path, which is not in the index any more.
    if (xy[0] === 'R' || xy[0] === 'C') i++;
  }
  const viaGit: string[] = [];
  await mapLimit(
    [...dirty].filter((p) => !isStatePath(p)),
    32,
    async (p) => {
      const abs = path.join(workspace, p);
      const st = await fs.promises.lstat(abs).catch(() => undefined);
      if (!st || st.isDirectory()) files.delete(p);
      // hash-object would follow a symlink, git stores its target; --stdin-paths can't carry a newline.
      else if (st.isSymbolicLink() || p.includes('\n')) files.set(p, await hashFile(abs));
      else viaGit.push(p);
    },
  );
  if (viaGit.length) {
    // Run from the repo's top with top-relative paths: --stdin-paths ignores the cwd's prefix.
    const top = path.resolve(
      workspace,
      ...prefix
        .split('/')
        .filter(Boolean)
        .map(() => '..'),
    );
    const stdin = viaGit.map((p) => `${prefix}${p}\n`).join('');
    const hashes = (await git(top, ['hash-object', '--stdin-paths'], { input: stdin })).trim().split('\n');
    viaGit.forEach((p, i) => files.set(p, hashes[i]));
  }
  return { kind: 'git', head, files: Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/**
 * Records every file of the workspace with its content hash: in a git work tree the tracked files and the untracked
 * ones that are not ignored, elsewhere every file under the folder (skipping .git, .ralph and node_modules). The
 * state folder `.ralph/` is never included. Reads only: the user's index is not refreshed.
 */
export async function snapshotWorkspace(input: SnapshotWorkspaceInput): Promise<SnapshotWorkspaceResult> {
  // One process answers "is it git, where in the tree, which HEAD" in the common case (a repo with commits).
  const out = await git(input.workspace, ['rev-parse', '--is-inside-work-tree', '--show-prefix', 'HEAD']).catch(
    () => '',
  );
  const [inside, prefix, head] = out.split('\n');
  if (inside === 'true' && /^[0-9a-f]{40,64}$/.test(head ?? '')) return snapshotGit(input.workspace, prefix, head);
  const p = await gitPrefix(input.workspace);
  return p === null ? snapshotDir(input.workspace) : snapshotGit(input.workspace, p);
}
export { WorkspaceGitError };
