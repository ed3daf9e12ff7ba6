import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { restoreCheckpoint } from '../../../src/activities/restore-checkpoint';
import { createCheckpoint } from '../../../src/activities/workspace/checkpoint';

const git = (dir: string, ...a: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });

function repo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-restore-'));
  git(dir, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'v1\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

describe('restoreCheckpoint', () => {
  it('puts an earlier checkpoint back into the working tree and keeps the current state as a checkpoint', async () => {
    const dir = repo();
    const at = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l' };
    await createCheckpoint({ ...at, label: 'iter-002-post' });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'v2\n');
    fs.writeFileSync(path.join(dir, 'b.txt'), 'later\n');
    const r = await restoreCheckpoint({ ...at, label: 'iter-002-post', to: 'worktree', saveAs: 'final' });
    expect(r).toEqual({ restoredTo: 'worktree', restored: 1, removed: 1, saved: 'final' });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('v1\n');
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
    // Nothing is lost: the final state is a checkpoint too, and the user's branch did not move.
    expect(git(dir, 'show', 'refs/ralph/l/final:b.txt')).toBe('later\n');
    expect(git(dir, 'log', '--oneline', 'main').trim().split('\n')).toHaveLength(1);
  });

  it('points the branch ralph/<loopId>/best at the checkpoint and leaves the working tree alone', async () => {
    const dir = repo();
    const at = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l' };
    fs.writeFileSync(path.join(dir, 'a.txt'), 'best\n');
    await createCheckpoint({ ...at, label: 'iter-002-post' });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'final\n');
    const r = await restoreCheckpoint({ ...at, label: 'iter-002-post', to: 'branch' });
    expect(r.restoredTo).toBe('ralph/l/best');
    expect(git(dir, 'show', 'ralph/l/best:a.txt')).toBe('best\n');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('final\n');
    expect(git(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
  });

  it('restores into the working tree of a plain folder even when a branch is asked for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-restore-dir-'));
    const at = { workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'l' };
    fs.writeFileSync(path.join(dir, 'a.txt'), 'v1\n');
    await createCheckpoint({ ...at, label: 'cp' });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'v2\n');
    expect(await restoreCheckpoint({ ...at, label: 'cp', to: 'branch' })).toMatchObject({ restoredTo: 'worktree' });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('v1\n');
  });

  it('names the checkpoint that does not exist', async () => {
    const dir = repo();
    await expect(
      restoreCheckpoint({
        workspace: dir,
        stateDir: path.join(dir, '.ralph'),
        loopId: 'l',
        label: 'nope',
        to: 'worktree',
      }),
    ).rejects.toThrow(/nope/);
  });
});
