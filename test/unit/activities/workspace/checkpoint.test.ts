import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createCheckpoint,
  listCheckpoints,
  rollbackToCheckpoint,
} from '../../../../src/activities/workspace/checkpoint';
import { snapshotWorkspace } from '../../../../src/activities/workspace/snapshot';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-ckpt-'));
const write = (dir: string, rel: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const gitIn =
  (dir: string) =>
  (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });

/**
 * Every file under dir (except .git, and a loop's own checkpoint data: its git index, manifests and store) with its
 * bytes' sha256: "byte-identical" made comparable.
 */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.name === '.git' || /(^|\/)loops\/[^/]+\/checkpoints$/.test(r)) continue;
    if (e.isDirectory()) Object.assign(out, tree(dir, r));
    else
      out[r] = crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(dir, r)))
        .digest('hex');
  }
  return out;
}

/** What must not change in the user's repo: HEAD, branch, index (file bytes and staged diff), stash, branch history. */
function userState(dir: string): Record<string, string> {
  const git = gitIn(dir);
  return {
    index: crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, '.git/index')))
      .digest('hex'),
    head: git('rev-parse', 'HEAD'),
    branch: git('symbolic-ref', 'HEAD'),
    staged: git('diff', '--cached'),
    stash: git('stash', 'list'),
    log: git('log', '--branches', '--format=%H %s'),
  };
}

/** A repo as an agent finds it: commits, a stash, a staged change, an unstaged one, untracked and ignored files. */
function gitRepo(): string {
  const dir = tmp();
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  write(dir, 'src/calc.ts', 'export const add = (a: number, b: number) => a + b;\n');
  write(dir, 'test/calc.test.ts', "it('adds', () => expect(add(1, 2)).toBe(3));\n");
  write(dir, '.gitignore', 'dist/\n');
  write(dir, 'bin/run.sh', '#!/bin/sh\necho run\n');
  fs.chmodSync(path.join(dir, 'bin/run.sh'), 0o755);
  git('add', '.');
  git('commit', '-qm', 'init');
  write(dir, 'notes.md', 'stashed\n');
  git('add', 'notes.md');
  git('stash', '-q');
  write(dir, 'src/calc.ts', 'export const add = (a: number, b: number) => a + b; // staged\n');
  git('add', 'src/calc.ts');
  write(dir, 'src/calc.ts', 'export const add = (a: number, b: number) => a + b; // staged, then edited\n');
  write(dir, 'scratch.txt', 'untracked\n');
  write(dir, 'dist/out.js', 'ignored\n');
  write(dir, '.ralph/loops/l1/state.json', '{"n":1}\n');
  return dir;
}

/** What an agent might do in an iteration: edit, delete a test, add files (one in a new folder), touch state. */
function agentChanges(dir: string): void {
  write(dir, 'src/calc.ts', 'export const add = () => 3;\n');
  fs.rmSync(path.join(dir, 'test/calc.test.ts'));
  fs.rmSync(path.join(dir, 'scratch.txt'));
  write(dir, 'src/hack.ts', 'export {};\n');
  write(dir, 'new/deep/file.ts', 'x\n');
  write(dir, 'dist/out.js', 'rebuilt\n');
  write(dir, '.ralph/loops/l1/state.json', '{"n":2}\n');
}

describe('createCheckpoint + rollbackToCheckpoint (git)', () => {
  it('restores the checkpoint tree byte for byte and leaves HEAD, branch, index and stash alone', async () => {
    const dir = gitRepo();
    const input = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l1', label: 'iteration-001' };
    const before = userState(dir);
    const snap = await snapshotWorkspace({ workspace: dir });
    const files = tree(dir);

    const cp = await createCheckpoint(input);
    expect(cp).toEqual({
      kind: 'git',
      ref: 'refs/ralph/l1/iteration-001',
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      tree: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    agentChanges(dir);
    const r = await rollbackToCheckpoint(input);

    expect(r).toEqual({
      restored: ['scratch.txt', 'src/calc.ts', 'test/calc.test.ts'],
      removed: ['new/deep/file.ts', 'src/hack.ts'],
    });
    // Ignored files and the state folder are not the checkpoint's business.
    expect(tree(dir)).toEqual({
      ...files,
      'dist/out.js': tree(dir)['dist/out.js'],
      '.ralph/loops/l1/state.json': tree(dir)['.ralph/loops/l1/state.json'],
    });
    expect(fs.readFileSync(path.join(dir, 'dist/out.js'), 'utf8')).toBe('rebuilt\n');
    expect(fs.existsSync(path.join(dir, 'new'))).toBe(false);
    expect((fs.statSync(path.join(dir, 'bin/run.sh')).mode & 0o111) !== 0).toBe(true);
    expect((await snapshotWorkspace({ workspace: dir })).files).toEqual(snap.files);
    expect(userState(dir)).toEqual(before);
    // The checkpoint commit hangs off HEAD but is on no branch.
    const git = gitIn(dir);
    expect(git('rev-parse', `${cp.commit}^`)).toBe(before.head);
    expect(git('branch', '--contains', cp.commit!)).toBe('');
    expect(await rollbackToCheckpoint(input)).toEqual({ restored: [], removed: [] });
  });

  it('removes files that a restored .gitignore no longer ignores', async () => {
    const dir = gitRepo();
    const input = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l1', label: 'c' };
    await createCheckpoint(input);
    write(dir, '.gitignore', 'dist/\nsecret.txt\n');
    write(dir, 'secret.txt', 'hidden by the agent\n');
    const r = await rollbackToCheckpoint(input);
    expect(r).toEqual({ restored: ['.gitignore'], removed: ['secret.txt'] });
    expect(fs.existsSync(path.join(dir, 'secret.txt'))).toBe(false);
  });

  it('works in a repo with no commit yet', async () => {
    const dir = tmp();
    gitIn(dir)('init', '-q');
    write(dir, 'a.txt', 'a\n');
    const input = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l', label: 'base' };
    const cp = await createCheckpoint(input);
    expect(gitIn(dir)('rev-list', '--parents', '-n1', cp.commit!).trim()).toBe(cp.commit);
    write(dir, 'a.txt', 'changed\n');
    write(dir, 'b.txt', 'b\n');
    expect(await rollbackToCheckpoint(input)).toEqual({ restored: ['a.txt'], removed: ['b.txt'] });
    expect(tree(dir)).toEqual({ 'a.txt': tree(dir)['a.txt'] });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(gitIn(dir)('status', '--porcelain')).toBe('?? a.txt\n');
  });

  it('replaces the checkpoint when the same label is used twice, and lists it once', async () => {
    const dir = gitRepo();
    const input = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l1', label: 'pre' };
    const first = await createCheckpoint(input);
    write(dir, 'src/calc.ts', 'second\n');
    const second = await createCheckpoint(input);
    expect(second.commit).not.toBe(first.commit);
    write(dir, 'src/calc.ts', 'third\n');
    await rollbackToCheckpoint(input);
    expect(fs.readFileSync(path.join(dir, 'src/calc.ts'), 'utf8')).toBe('second\n');
    await createCheckpoint({ ...input, label: 'other' });
    const list = await listCheckpoints({ workspace: dir, loopId: 'l1' });
    expect(list.kind).toBe('git');
    expect(list.checkpoints.map((c) => c.label).sort()).toEqual(['other', 'pre']);
    expect(list.checkpoints.find((c) => c.label === 'pre')?.commit).toBe(second.commit);
    expect((await listCheckpoints({ workspace: dir, loopId: 'nope' })).checkpoints).toEqual([]);
  });

  it('fails with CheckpointNotFoundError for an unknown label', async () => {
    const dir = gitRepo();
    await expect(
      rollbackToCheckpoint({ workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l1', label: 'missing' }),
    ).rejects.toMatchObject({ name: 'CheckpointNotFoundError' });
  });
});

describe('createCheckpoint + rollbackToCheckpoint (plain folder)', () => {
  it('round-trips through a manifest and content store under the state folder', async () => {
    const dir = tmp();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'test/a.test.ts', 't\n');
    write(dir, 'node_modules/x.js', 'x\n');
    fs.symlinkSync('src/a.ts', path.join(dir, 'link'));
    const stateDir = path.join(dir, '.ralph');
    const input = { workspace: dir, stateDir, loopId: 'l', label: 'iteration-001' };
    const files = tree(dir);

    const cp = await createCheckpoint(input);
    expect(cp).toEqual({
      kind: 'dir',
      commit: null,
      ref: path.join(stateDir, 'loops/l/checkpoints/iteration-001.json'),
    });
    expect(fs.existsSync(cp.ref)).toBe(true);
    write(dir, 'src/a.ts', 'changed\n');
    fs.rmSync(path.join(dir, 'test/a.test.ts'));
    write(dir, 'extra/b.ts', 'b\n');

    expect(await rollbackToCheckpoint(input)).toEqual({
      restored: ['src/a.ts', 'test/a.test.ts'],
      removed: ['extra/b.ts'],
    });
    const after = tree(dir);
    for (const k of Object.keys(after)) if (k.startsWith('.ralph/')) delete after[k];
    expect(after).toEqual(files);
    expect(fs.readlinkSync(path.join(dir, 'link'))).toBe('src/a.ts');

    await createCheckpoint({ ...input, label: 'iteration-001' });
    const list = await listCheckpoints({ workspace: dir, loopId: 'l' });
    expect(list).toEqual({
      kind: 'dir',
      checkpoints: [expect.objectContaining({ label: 'iteration-001', ref: cp.ref })],
    });
  });

  it('keeps a state folder placed elsewhere in the workspace out of the checkpoint', async () => {
    const dir = tmp();
    write(dir, 'a.txt', 'a\n');
    const stateDir = path.join(dir, 'state');
    const input = { workspace: dir, stateDir, loopId: 'l', label: 'x' };
    const cp = await createCheckpoint(input);
    const names = Object.keys((JSON.parse(fs.readFileSync(cp.ref, 'utf8')) as { files: object }).files);
    expect(names).toEqual(['a.txt']);
    write(dir, 'a.txt', 'b\n');
    expect(await rollbackToCheckpoint(input)).toEqual({ restored: ['a.txt'], removed: [] });
    expect(fs.existsSync(cp.ref)).toBe(true);
  });
});

describe('createCheckpoint with the state folder ignored by .gitignore', () => {
  it('records every other file and leaves .ralph out (git refuses the exclude pathspec there, exit 1)', async () => {
    const dir = tmp();
    const git = gitIn(dir);
    git('init', '-q', '-b', 'main');
    write(dir, '.gitignore', '.ralph/\n');
    write(dir, 'a.txt', 'a\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
    write(dir, '.ralph/loops/l/state.json', '{}');
    write(dir, 'b.txt', 'new\n');
    const c = await createCheckpoint({ workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l', label: 'x' });
    expect(git('ls-tree', '-r', '--name-only', c.commit!).trim().split('\n')).toEqual(['.gitignore', 'a.txt', 'b.txt']);
  });
});
