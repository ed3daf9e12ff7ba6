/**
 * The verification tree IN PLACE: instead of building a copy of the repository (a `git worktree` of 10k files costs
 * seconds), the few files the tree must differ in are swapped in the workspace itself while no agent runs: the work's
 * versions are moved aside, the baseline's versions (or the merged multi-purpose files) put in their place, files the
 * tree must lack (new configuration, the agent's new test files for the first run, new ignored files) simply moved
 * aside; after the checks, everything is moved back. The work's versions wait where no test runner looks: inside the
 * repository's git directory (`.git/ralph-swap/<loop>`), or for a plain folder in the OS temp folder (never in the
 * state folder: jest collects test files under `.ralph/` too). A journal in the state folder, written BEFORE the first
 * move, lists every swapped path and where its work version is held, so a crash mid-check is repaired by the next
 * attempt ({@link recoverSwap}): the activity's retry, or the loop's next verification, puts the work back first; a
 * held version lost with the temp folder comes back from the post-run checkpoint.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import execa from 'execa';
import { verificationDir } from '../../state/manifest';
import { writeJsonAtomic } from '../../state/artifacts';
import { extractDirCheckpoint } from '../workspace/checkpoint';

/** One swapped path: `held` is where the work's version waits (undefined: the work had no file there). */
interface SwapEntry {
  path: string;
  held?: string;
}

/** The journal of a swap in progress. */
interface SwapJournal {
  workspace: string;
  scratch: string;
  /** The checkpoint holding the work: where a lost held version comes back from. */
  post: SwapSource;
  stateDir: string;
  loopId: string;
  entries: SwapEntry[];
}

/** What {@link swapIn} changes in the workspace. */
export interface SwapPlan {
  /** Paths written back with their baseline content (from the baseline checkpoint). */
  restore: string[];
  /** Paths whose content becomes the given text (multi-purpose files with their protected parts put back). */
  write: Record<string, string>;
  /** Paths the tree must lack (moved aside). */
  hide: string[];
}

/** A checkpoint files come from: the baseline (restored versions), or the work's post-run one (crash recovery). */
export interface SwapSource {
  kind: 'git' | 'dir';
  commit: string | null;
  label: string;
}

/** The loop a swap belongs to, and its checkpoints. */
export interface SwapLoop {
  stateDir: string;
  loopId: string;
  baseline: SwapSource;
  post: SwapSource;
}

/** A swap in progress: the workspace is the verification tree until {@link Swap.undo}. */
export interface Swap {
  /** A folder outside the workspace, removed with the swap (the checks' bytecode prefix). */
  scratch: string;
  /** Puts the agent's new test files (hidden for the first run) back, and forgets them. */
  unhide(paths: string[]): Promise<void>;
  /** Moves every work version back. */
  undo(): Promise<void>;
}

const journalFile = (stateDir: string, loopId: string): string =>
  path.join(verificationDir(stateDir, loopId), 'swap.json');

/**
 * Puts back a swap a crash left behind (every held work version moved back, the scratch folder removed). Returns the
 * number of paths repaired (0: there was no swap in progress).
 */
export async function recoverSwap(stateDir: string, loopId: string): Promise<number> {
  const file = journalFile(stateDir, loopId);
  let j: SwapJournal;
  try {
    j = JSON.parse(await fs.promises.readFile(file, 'utf8')) as SwapJournal;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  await putBack(j, true);
  await fs.promises.rm(file, { force: true });
  return j.entries.length;
}

/** Swaps the workspace into the verification tree (see the module's comment). */
export async function swapIn(workspace: string, loop: SwapLoop, plan: SwapPlan): Promise<Swap> {
  await recoverSwap(loop.stateDir, loop.loopId);
  const scratch = await scratchDir(workspace, loop);
  const baseline = path.join(scratch, 'baseline');
  await fs.promises.mkdir(baseline, { recursive: true });
  if (plan.restore.length) await extract(workspace, loop, loop.baseline, plan.restore, baseline);
  const paths = [...new Set([...plan.restore, ...Object.keys(plan.write), ...plan.hide])].sort();
  const entries: SwapEntry[] = [];
  for (const p of paths)
    entries.push({
      path: p,
      held: (await exists(path.join(workspace, p))) ? path.join(scratch, 'held', p) : undefined,
    });
  const journal: SwapJournal = {
    workspace,
    scratch,
    post: loop.post,
    stateDir: loop.stateDir,
    loopId: loop.loopId,
    entries,
  };
  const file = journalFile(loop.stateDir, loop.loopId);
  writeJsonAtomic(file, journal);
  for (const e of entries) if (e.held) await move(path.join(workspace, e.path), e.held);
  for (const p of plan.restore) {
    const from = path.join(baseline, p);
    if (await exists(from)) await move(from, path.join(workspace, p));
  }
  for (const [p, text] of Object.entries(plan.write)) {
    await fs.promises.mkdir(path.dirname(path.join(workspace, p)), { recursive: true });
    await fs.promises.writeFile(path.join(workspace, p), text);
  }
  return {
    scratch: path.join(scratch, 'run'),
    unhide: async (ps) => {
      const back = new Set(ps);
      for (const e of journal.entries) if (back.has(e.path) && e.held) await move(e.held, path.join(workspace, e.path));
      journal.entries = journal.entries.filter((e) => !back.has(e.path));
      writeJsonAtomic(file, journal);
    },
    undo: async () => {
      await putBack(journal, false);
      await fs.promises.rm(file, { force: true });
    },
  };
}

/** Where a swap's held files wait: in the git directory, else in the OS temp folder. */
async function scratchDir(workspace: string, loop: SwapLoop): Promise<string> {
  const name = `ralph-swap-${loop.loopId.replace(/[^\w.-]/g, '_')}`;
  let dir: string;
  if (loop.baseline.kind === 'git') {
    const r = await execa('git', ['rev-parse', '--absolute-git-dir'], { cwd: workspace });
    dir = path.join(r.stdout.trim(), name);
  } else
    dir = path.join(os.tmpdir(), `${name}-${crypto.createHash('sha256').update(workspace).digest('hex').slice(0, 8)}`);
  await fs.promises.rm(dir, { recursive: true, force: true });
  await fs.promises.mkdir(path.join(dir, 'run'), { recursive: true });
  return dir;
}

/**
 * Moves every held work version back (removing what the swap or the checks put there), then the scratch folder.
 * Recovering after a crash, a held version that is gone comes back from the post-run checkpoint.
 */
async function putBack(j: SwapJournal, recovering: boolean): Promise<void> {
  const lost: string[] = [];
  for (const e of j.entries) {
    const at = path.join(j.workspace, e.path);
    if (e.held && !(await exists(e.held))) {
      // Moved back before the crash, or lost with the temp folder: the post-run checkpoint has the work's version.
      if (recovering) lost.push(e.path);
      continue;
    }
    await fs.promises.rm(at, { recursive: true, force: true });
    if (e.held) await move(e.held, at);
  }
  if (lost.length) await fromPost(j, lost);
  await fs.promises.rm(j.scratch, { recursive: true, force: true });
}

/** The post-run checkpoint's versions of `paths` put in the workspace (paths it does not hold are left as they are). */
async function fromPost(j: SwapJournal, paths: string[]): Promise<void> {
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ralph-swap-recover-'));
  try {
    await extract(j.workspace, { stateDir: j.stateDir, loopId: j.loopId }, j.post, paths, tmp).catch(() => undefined);
    for (const p of paths) {
      if (!(await exists(path.join(tmp, p)))) continue;
      await fs.promises.rm(path.join(j.workspace, p), { recursive: true, force: true });
      await move(path.join(tmp, p), path.join(j.workspace, p));
    }
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}

/** A checkpoint's versions of `paths` into `dest` (git: `git archive` of its commit; a folder: its archive). */
async function extract(
  workspace: string,
  loop: Pick<SwapLoop, 'stateDir' | 'loopId'>,
  from: SwapSource,
  paths: string[],
  dest: string,
): Promise<void> {
  if (from.kind === 'git' && from.commit) {
    // Run in the workspace (a repository's subfolder too), git archive takes and writes paths relative to it.
    // Only the paths the commit has: git archive refuses a pathspec that matches nothing.
    const has = await execa('git', ['ls-tree', '-r', '-z', '--name-only', '--full-name', from.commit, '--', ...paths], {
      cwd: workspace,
    });
    const prefix = (await execa('git', ['rev-parse', '--show-prefix'], { cwd: workspace })).stdout.trim();
    const present = new Set(
      has.stdout
        .split('\0')
        .filter(Boolean)
        .map((p) => p.slice(prefix.length)),
    );
    const wanted = paths.filter((p) => present.has(p));
    if (!wanted.length) return;
    const tar = await execa('git', ['archive', '--format=tar', from.commit, '--', ...wanted], {
      cwd: workspace,
      encoding: null,
    });
    await fs.promises.mkdir(dest, { recursive: true });
    await execa('tar', ['-x', '-C', dest], { input: tar.stdout });
    return;
  }
  await extractDirCheckpoint(
    { workspace, stateDir: loop.stateDir, loopId: loop.loopId, label: from.label },
    dest,
    paths,
  );
}

async function exists(p: string): Promise<boolean> {
  return fs.promises.lstat(p).then(
    () => true,
    () => false,
  );
}

/** Renames, across file systems too (copy, then remove). */
async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await fs.promises.cp(from, to, { recursive: true, verbatimSymlinks: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}
