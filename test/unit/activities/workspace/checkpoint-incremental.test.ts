import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  checkpointContents,
  checkpointFiles,
  createCheckpoint,
  listCheckpoints,
  rollbackToCheckpoint,
} from '../../../../src/activities/workspace/checkpoint';
import { objectPath } from '../../../../src/activities/workspace/checkpoint-store';
import { RACY_MS } from '../../../../src/activities/workspace/tree-stat';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-ckpt-inc-'));
const write = (dir: string, rel: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const gitIn =
  (dir: string) =>
  (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });
const sha = (b: Buffer | string): string => crypto.createHash('sha256').update(b).digest('hex');

/** Every workspace file (not .git, not the state folder) with its bytes' hash, its mode and, for a symlink, its target. */
function files(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.name === '.git' || e.name === '.ralph') continue;
    const abs = path.join(dir, r);
    if (e.isDirectory()) Object.assign(out, files(dir, r));
    else if (e.isSymbolicLink()) out[r] = `-> ${fs.readlinkSync(abs)}`;
    else out[r] = `${sha(fs.readFileSync(abs))} ${(fs.statSync(abs).mode & 0o777).toString(8)}`;
  }
  return out;
}

function repo(): string {
  const dir = tmp();
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  write(dir, 'src/a.ts', 'a\n');
  write(dir, 'src/b.ts', 'b\n');
  write(dir, '.gitignore', 'dist/\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  write(dir, 'untracked.txt', 'u\n');
  return dir;
}

const at = (dir: string, label: string, loopId = 'l') => ({
  workspace: dir,
  stateDir: path.join(dir, '.ralph'),
  loopId,
  label,
});

const indexFile = (dir: string, loopId = 'l'): string =>
  path.join(dir, '.ralph/loops', loopId, 'checkpoints/.git-index');

describe('createCheckpoint in a git workspace (persistent per-loop index)', () => {
  it("keeps the loop's own index under the state folder and never writes the user's index", async () => {
    const dir = repo();
    const userIndex = fs.readFileSync(path.join(dir, '.git/index'));
    await createCheckpoint(at(dir, 'iter-001-pre'));
    write(dir, 'src/a.ts', 'a2\n');
    await createCheckpoint(at(dir, 'iter-001-post'));
    expect(fs.existsSync(indexFile(dir))).toBe(true);
    expect(fs.readFileSync(path.join(dir, '.git/index')).equals(userIndex)).toBe(true);
    expect(gitIn(dir)('status', '--porcelain')).toBe(' M src/a.ts\n?? untracked.txt\n');
  });

  it("reuses the previous checkpoint's commit when nothing changed (post of N = pre of N+1)", async () => {
    const dir = repo();
    await createCheckpoint(at(dir, 'iter-001-pre'));
    write(dir, 'src/a.ts', 'a2\n');
    const post = await createCheckpoint(at(dir, 'iter-001-post'));
    const pre2 = await createCheckpoint(at(dir, 'iter-002-pre'));
    expect(pre2.commit).toBe(post.commit);
    expect(pre2.tree).toBe(post.tree);
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-002-pre').trim()).toBe(post.commit);
    // One commit per distinct state: pre-1 and post-1.
    expect(gitIn(dir)('rev-list', '--count', '--glob=refs/ralph/l/*', '^HEAD').trim()).toBe('2');
    write(dir, 'src/b.ts', 'b2\n');
    const post2 = await createCheckpoint(at(dir, 'iter-002-post'));
    expect(post2.commit).not.toBe(post.commit);
    expect(Object.keys((await checkpointFiles(at(dir, 'iter-002-post'))).files).sort()).toEqual([
      '.gitignore',
      'src/a.ts',
      'src/b.ts',
      'untracked.txt',
    ]);
  });

  it('rolls back exactly after many incremental checkpoints, deletes and new files included', async () => {
    const dir = repo();
    const states: Record<string, Record<string, string>> = {};
    for (let n = 1; n <= 4; n++) {
      await createCheckpoint(at(dir, `iter-00${n}-pre`));
      states[n] = files(dir);
      write(dir, `src/new${n}.ts`, `n${n}\n`);
      write(dir, 'src/a.ts', `a${n}\n`);
      if (n === 2) fs.rmSync(path.join(dir, 'src/b.ts'));
      await createCheckpoint(at(dir, `iter-00${n}-post`));
    }
    const before = gitIn(dir)('rev-parse', 'HEAD');
    await rollbackToCheckpoint(at(dir, 'iter-002-pre'));
    expect(files(dir)).toEqual(states[2]);
    await rollbackToCheckpoint(at(dir, 'iter-001-pre'));
    expect(files(dir)).toEqual(states[1]);
    // After a rollback the next checkpoint sees the rolled-back files (the stat cache notices the rewrites).
    const again = await createCheckpoint(at(dir, 'again'));
    const first = await checkpointFiles(at(dir, 'iter-001-pre'));
    expect(again.tree).toBe(gitIn(dir)('rev-parse', `${first.commit}^{tree}`).trim());
    expect(gitIn(dir)('rev-parse', 'HEAD')).toBe(before);
  });

  it('drops a file from later checkpoints once a .gitignore change ignores it', async () => {
    const dir = repo();
    write(dir, 'build.log', 'x\n');
    const c1 = await createCheckpoint(at(dir, 'c1'));
    expect(Object.keys((await checkpointFiles(at(dir, 'c1'))).files)).toContain('build.log');
    write(dir, '.gitignore', 'dist/\n*.log\n');
    const c2 = await createCheckpoint(at(dir, 'c2'));
    expect(c2.commit).not.toBe(c1.commit);
    expect(Object.keys((await checkpointFiles(at(dir, 'c2'))).files)).not.toContain('build.log');
  });

  it('picks up what the user stages in their own index (a force-added ignored file)', async () => {
    const dir = repo();
    write(dir, 'dist/keep.js', 'k\n');
    await createCheckpoint(at(dir, 'c1'));
    expect(Object.keys((await checkpointFiles(at(dir, 'c1'))).files)).not.toContain('dist/keep.js');
    gitIn(dir)('add', '-f', 'dist/keep.js');
    await createCheckpoint(at(dir, 'c2'));
    expect(Object.keys((await checkpointFiles(at(dir, 'c2'))).files)).toContain('dist/keep.js');
  });

  it('gives concurrent checkpoints of one loop (hooks during a run) each a correct commit', async () => {
    const dir = repo();
    await createCheckpoint(at(dir, 'base'));
    write(dir, 'src/a.ts', 'changed\n');
    const all = await Promise.all([1, 2, 3, 4].map((k) => createCheckpoint(at(dir, `risk-${k}`))));
    const trees = new Set(all.map((c) => c.tree));
    expect(trees.size).toBe(1);
    for (const c of all) expect(gitIn(dir)('show', `${c.commit}:src/a.ts`)).toBe('changed\n');
  });

  it("recovers from a crashed run: a dead process's lock and a leftover index.lock", async () => {
    const dir = repo();
    await createCheckpoint(at(dir, 'c1'));
    const cpDir = path.dirname(indexFile(dir));
    // A pid that is certainly not running: a child that has exited.
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    fs.writeFileSync(path.join(cpDir, '.git-index.ralph-lock'), dead);
    fs.writeFileSync(`${indexFile(dir)}.lock`, '');
    write(dir, 'src/a.ts', 'after crash\n');
    const c2 = await createCheckpoint(at(dir, 'c2'));
    expect(gitIn(dir)('show', `${c2.commit}:src/a.ts`)).toBe('after crash\n');
    expect(fs.existsSync(path.join(cpDir, '.git-index.ralph-lock'))).toBe(false);
  });

  it('checkpoints a repository with no commit yet: parentless commits, then HEAD as parent once there is one', async () => {
    const dir = tmp();
    const git = gitIn(dir);
    git('init', '-q', '-b', 'main');
    write(dir, 'a.txt', 'a\n');
    const first = await createCheckpoint(at(dir, 'iter-001-pre'));
    expect(git('rev-list', '--parents', '-n', '1', first.commit!).trim()).toBe(first.commit);
    git('add', '.');
    git('commit', '-qm', 'first');
    write(dir, 'a.txt', 'a2\n');
    const second = await createCheckpoint(at(dir, 'iter-001-post'));
    expect(git('rev-parse', `${second.commit}^`).trim()).toBe(git('rev-parse', 'HEAD').trim());
    expect(
      await checkpointContents(at(dir, 'iter-001-post'), await checkpointFiles(at(dir, 'iter-001-post')), ['a.txt']),
    ).toEqual({ 'a.txt': 'a2\n' });
  });

  it('rebuilds a damaged index from the user index', async () => {
    const dir = repo();
    await createCheckpoint(at(dir, 'c1'));
    fs.writeFileSync(indexFile(dir), 'garbage');
    fs.rmSync(path.join(path.dirname(indexFile(dir)), '.git-index.json'));
    write(dir, 'src/b.ts', 'b3\n');
    const c2 = await createCheckpoint(at(dir, 'c2'));
    expect(gitIn(dir)('show', `${c2.commit}:src/b.ts`)).toBe('b3\n');
  });
});

describe('createCheckpoint without git when the work tree provably did not change (tree-stat.ts)', () => {
  /**
   * Whether git built the checkpoint made during `fn`: it rewrites the loop index's metadata file (a new inode); the
   * path without git leaves it alone.
   */
  async function gitRanDuring(dir: string, fn: () => Promise<unknown>): Promise<boolean> {
    const meta = path.join(path.dirname(indexFile(dir)), '.git-index.json');
    const sig = (): string => {
      const st = fs.statSync(meta, { bigint: true });
      return `${st.ino}:${st.mtimeNs}`;
    };
    const before = sig();
    await fn();
    return sig() !== before;
  }
  const postThenPre = async (dir: string, change?: () => void) => {
    // The repository's own files are older than the racy window; only src/a.ts, written below, is racy.
    await new Promise((r) => setTimeout(r, 3 * RACY_MS));
    const pre1 = await createCheckpoint(at(dir, 'iter-001-pre'));
    write(dir, 'src/a.ts', 'a2\n');
    // As the detection pass does: the post-run checkpoint diffs against the pre-run one (blob ids of racy files).
    const post = await createCheckpoint(at(dir, 'iter-001-post'), { diffFrom: pre1.commit! });
    change?.();
    let pre = post;
    const gitRan = await gitRanDuring(dir, async () => (pre = await createCheckpoint(at(dir, 'iter-002-pre'))));
    return { post, pre, gitRan };
  };
  const contentOf = async (dir: string, label: string, p: string) =>
    (await checkpointContents(at(dir, label), await checkpointFiles(at(dir, label)), [p]))[p];

  it('reuses the post-run checkpoint as the next pre-run one without git add, its racy files checked by content', async () => {
    const dir = repo();
    const { post, pre, gitRan } = await postThenPre(dir);
    expect(pre).toMatchObject({ commit: post.commit, tree: post.tree });
    expect(gitRan).toBe(false);
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-002-pre').trim()).toBe(post.commit);
  });

  it('sees a same-size rewrite right after the checkpoint (the racy case), by content', async () => {
    const dir = repo();
    // Same size, within the timestamp granularity: stat may show nothing; the blob id differs.
    const { post, pre, gitRan } = await postThenPre(dir, () => write(dir, 'src/a.ts', 'a3\n'));
    expect(pre.commit).not.toBe(post.commit);
    expect(gitRan).toBe(true);
    expect(await contentOf(dir, 'iter-002-pre', 'src/a.ts')).toBe('a3\n');
  });

  it.each([
    [
      'a new file in a folder holding no tracked file',
      (d: string) => write(d, 'logs/deep/new.txt', 'n\n'),
      'logs/deep/new.txt',
    ],
    ['a deleted file', (d: string) => fs.rmSync(path.join(d, 'src/b.ts')), 'src/b.ts'],
    ['a mode change', (d: string) => fs.chmodSync(path.join(d, 'src/b.ts'), 0o755), undefined],
    [
      'a symlink turned to another target of the same length',
      (d: string) => {
        fs.symlinkSync('x1', path.join(d, 'link'));
      },
      'link',
    ],
  ])('runs git after %s, and the checkpoint has it', async (_what, change, p) => {
    const dir = repo();
    const { post, pre, gitRan } = await postThenPre(dir, () => change(dir));
    expect(gitRan).toBe(true);
    expect(pre.tree).not.toBe(post.tree);
    // The file's blob changed too (a mode change shows in the tree only).
    if (p)
      expect((await checkpointFiles(at(dir, 'iter-002-pre'))).files[p]).not.toBe(
        (await checkpointFiles(at(dir, 'iter-001-post'))).files[p],
      );
  });

  it('runs git after an ignored file appears, and keeps the same tree', async () => {
    const dir = repo();
    const { post, pre, gitRan } = await postThenPre(dir, () => write(dir, 'dist/out.js', 'built\n'));
    expect(gitRan).toBe(true);
    expect(pre).toMatchObject({ commit: post.commit, tree: post.tree });
  });

  it('runs git when another process wrote the loop index meanwhile (a hook checkpoint)', async () => {
    const dir = repo();
    const { post, pre, gitRan } = await postThenPre(dir, () => {
      fs.appendFileSync(indexFile(dir), '');
      fs.utimesSync(indexFile(dir), new Date(), new Date(Date.now() + 5000));
    });
    expect(gitRan).toBe(true);
    expect(pre.tree).toBe(post.tree);
  });
});

describe('checkpoint refs written as loose files (no git update-ref)', () => {
  const refFile = (dir: string, label: string): string => path.join(dir, '.git/refs/ralph/l', label);
  const reflog = (dir: string, label: string): string => path.join(dir, '.git/logs/refs/ralph/l', label);

  it('writes the ref as git would, and git reads it', async () => {
    const dir = repo();
    gitIn(dir)('config', 'core.logAllRefUpdates', 'always');
    const c = await createCheckpoint(at(dir, 'iter-001-pre'));
    expect(fs.readFileSync(refFile(dir, 'iter-001-pre'), 'utf8')).toBe(`${c.commit}\n`);
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-001-pre').trim()).toBe(c.commit);
    expect(fs.existsSync(`${refFile(dir, 'iter-001-pre')}.lock`)).toBe(false);
    // Written by us, not by git: no reflog entry.
    expect(fs.existsSync(reflog(dir, 'iter-001-pre'))).toBe(false);
  });

  it('leaves the ref to git when the repository does not keep loose refs (extensions.refStorage)', async () => {
    const dir = repo();
    gitIn(dir)('config', 'core.logAllRefUpdates', 'always');
    // This git ignores extensions in a version-0 repository; ralph must still not write a loose ref there.
    gitIn(dir)('config', 'extensions.refStorage', 'reftable');
    const c = await createCheckpoint(at(dir, 'iter-001-pre'));
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-001-pre').trim()).toBe(c.commit);
    expect(fs.existsSync(reflog(dir, 'iter-001-pre'))).toBe(true);
  });

  it('leaves the ref to git when a reference-transaction hook must see it (core.hooksPath honoured)', async () => {
    const dir = repo();
    const hooks = path.join(dir, 'my-hooks');
    write(dir, 'my-hooks/reference-transaction', `#!/bin/sh\ncat >> "${path.join(dir, 'seen.log')}"\n`);
    fs.chmodSync(path.join(hooks, 'reference-transaction'), 0o755);
    gitIn(dir)('config', 'core.hooksPath', hooks);
    const c = await createCheckpoint(at(dir, 'iter-001-pre'));
    expect(fs.readFileSync(path.join(dir, 'seen.log'), 'utf8')).toContain(`${c.commit} refs/ralph/l/iter-001-pre`);
  });

  it('takes over a ref lock left by a killed worker, and leaves a fresh one to git', async () => {
    const dir = repo();
    fs.mkdirSync(path.dirname(refFile(dir, 'iter-001-pre')), { recursive: true });
    const lock = `${refFile(dir, 'iter-001-pre')}.lock`;
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    const c = await createCheckpoint(at(dir, 'iter-001-pre'));
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-001-pre').trim()).toBe(c.commit);
    expect(fs.existsSync(lock)).toBe(false);
    fs.writeFileSync(`${refFile(dir, 'iter-002-pre')}.lock`, '');
    await expect(createCheckpoint(at(dir, 'iter-002-pre'))).rejects.toThrow(/update-ref/);
    expect(fs.existsSync(`${refFile(dir, 'iter-002-pre')}.lock`)).toBe(true);
  });

  it("writes a linked worktree's checkpoint refs in the common repository", async () => {
    const dir = repo();
    const wt = path.join(tmp(), 'wt');
    gitIn(dir)('worktree', 'add', '-q', '--detach', wt);
    const c = await createCheckpoint(at(wt, 'iter-001-pre'));
    expect(gitIn(dir)('rev-parse', 'refs/ralph/l/iter-001-pre').trim()).toBe(c.commit);
    expect(gitIn(wt)('rev-parse', 'refs/ralph/l/iter-001-pre').trim()).toBe(c.commit);
  });
});

describe('createCheckpoint in a plain folder (content-addressed store)', () => {
  function folder(): string {
    const dir = tmp();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'src/b.ts', 'b\n');
    write(dir, 'run.sh', '#!/bin/sh\n');
    fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
    fs.symlinkSync('src/a.ts', path.join(dir, 'link'));
    return dir;
  }
  const store = (dir: string): string[] => {
    const root = path.join(dir, '.ralph/loops/l/checkpoints/.store/objects');
    return fs.readdirSync(root).flatMap((d) => fs.readdirSync(path.join(root, d)).map((f) => d + f));
  };

  it('stores each content once, however many checkpoints hold it, and writes no archive', async () => {
    const dir = folder();
    await createCheckpoint(at(dir, 'iter-001-pre'));
    write(dir, 'src/a.ts', 'a2\n');
    await createCheckpoint(at(dir, 'iter-001-post'));
    await createCheckpoint(at(dir, 'iter-002-pre'));
    // a, a2, b, run.sh (the symlink's target is in the manifest).
    expect(store(dir)).toHaveLength(4);
    const cpDir = path.join(dir, '.ralph/loops/l/checkpoints');
    expect(fs.readdirSync(cpDir).filter((f) => f.endsWith('.tar.gz'))).toEqual([]);
    expect((await listCheckpoints({ workspace: dir, loopId: 'l' })).checkpoints.map((c) => c.label)).toEqual([
      'iter-001-pre',
      'iter-001-post',
      'iter-002-pre',
    ]);
  });

  it('rolls back exactly: contents, modes, symlinks, deleted and added files', async () => {
    const dir = folder();
    const want = files(dir);
    await createCheckpoint(at(dir, 'cp'));
    write(dir, 'src/a.ts', 'changed\n');
    fs.rmSync(path.join(dir, 'run.sh'));
    fs.rmSync(path.join(dir, 'link'));
    fs.symlinkSync('src/b.ts', path.join(dir, 'link'));
    write(dir, 'new/x.ts', 'x\n');
    const r = await rollbackToCheckpoint(at(dir, 'cp'));
    expect(r).toEqual({ restored: ['link', 'run.sh', 'src/a.ts'], removed: ['new/x.ts'] });
    expect(files(dir)).toEqual(want);
    expect(fs.existsSync(path.join(dir, 'new'))).toBe(false);
    expect(await rollbackToCheckpoint(at(dir, 'cp'))).toEqual({ restored: [], removed: [] });
  });

  it('notices a same-size edit that kept the mtime (the stat cache compares ctime and inode too)', async () => {
    const dir = folder();
    const abs = path.join(dir, 'src/a.ts');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(abs, old, old);
    await createCheckpoint(at(dir, 'c1'));
    await createCheckpoint(at(dir, 'c2')); // the cached hash is now trusted
    fs.writeFileSync(abs, 'z\n');
    fs.utimesSync(abs, old, old);
    await createCheckpoint(at(dir, 'c3'));
    const c1 = await checkpointFiles(at(dir, 'c1'));
    const c3 = await checkpointFiles(at(dir, 'c3'));
    expect(c3.files['src/a.ts']).not.toBe(c1.files['src/a.ts']);
    await rollbackToCheckpoint(at(dir, 'c1'));
    expect(fs.readFileSync(abs, 'utf8')).toBe('a\n');
  });

  it('reads checkpoint contents from the store, and names a missing stored file clearly', async () => {
    const dir = folder();
    await createCheckpoint(at(dir, 'c1'));
    const cp = await checkpointFiles(at(dir, 'c1'));
    expect(await checkpointContents(at(dir, 'c1'), cp, ['src/a.ts', 'nope'])).toEqual({
      'src/a.ts': 'a\n',
      nope: undefined,
    });
    fs.rmSync(objectPath(path.join(dir, '.ralph/loops/l/checkpoints'), cp.files['src/b.ts']));
    fs.rmSync(path.join(dir, 'src/b.ts'));
    await expect(rollbackToCheckpoint(at(dir, 'c1'))).rejects.toThrow(/src\/b\.ts .*missing from the checkpoint store/);
  });

  it('still rolls back to a checkpoint recorded as a tar.gz archive by an older version', async () => {
    const dir = folder();
    const cpDir = path.join(dir, '.ralph/loops/l/checkpoints');
    fs.mkdirSync(cpDir, { recursive: true });
    execFileSync('tar', ['-czf', path.join(cpDir, 'old.tar.gz'), '-C', dir, 'src/a.ts', 'src/b.ts', 'run.sh', 'link']);
    const blob = (s: string): string =>
      crypto
        .createHash('sha1')
        .update(`blob ${Buffer.byteLength(s)}\0`)
        .update(s)
        .digest('hex');
    fs.writeFileSync(
      path.join(cpDir, 'old.json'),
      JSON.stringify({
        label: 'old',
        createdAt: new Date().toISOString(),
        files: {
          'src/a.ts': blob('a\n'),
          'src/b.ts': blob('b\n'),
          'run.sh': blob('#!/bin/sh\n'),
          link: blob('src/a.ts'),
        },
      }),
    );
    const want = files(dir);
    write(dir, 'src/a.ts', 'changed\n');
    write(dir, 'extra.ts', 'e\n');
    expect(await rollbackToCheckpoint(at(dir, 'old'))).toEqual({ restored: ['src/a.ts'], removed: ['extra.ts'] });
    expect(files(dir)).toEqual(want);
    expect((await listCheckpoints({ workspace: dir, loopId: 'l' })).checkpoints[0].ref).toBe(
      path.join(cpDir, 'old.tar.gz'),
    );
  });
});
