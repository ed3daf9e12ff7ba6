import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCheckpoint } from '../../../../src/activities/workspace/checkpoint';
import {
  commitText,
  repoAllowsLooseWrites,
  resolveHead,
  writeLooseObject,
} from '../../../../src/activities/workspace/commit-object';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-commit-object-'));
const git = (cwd: string, args: string[], env: Record<string, string> = {}): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).trim();

function repo(): string {
  const dir = tmp();
  git(dir, ['init', '-q', '-b', 'main']);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-qm', 'first']);
  return dir;
}
const dirsOf = (dir: string) => ({ gitDir: path.join(dir, '.git'), commonDir: path.join(dir, '.git') });

describe('commit objects written without git', () => {
  it('writes the very object git commit-tree writes, and git reads it back and fscks it', async () => {
    const dir = repo();
    const tree = git(dir, ['write-tree']);
    const head = git(dir, ['rev-parse', 'HEAD']);
    const when = new Date(1_700_000_000_000);
    const text = commitText(
      tree,
      head,
      'ralph checkpoint iter-001-post',
      { name: 'ralph', email: 'ralph@localhost' },
      when,
    );
    const ours = await writeLooseObject(path.join(dir, '.git'), 'commit', text);
    const tz = text.split('\n')[2].split(' ').pop()!;
    const date = `1700000000 ${tz}`;
    const theirs = git(dir, ['commit-tree', '-p', head, '-m', 'ralph checkpoint iter-001-post', tree], {
      GIT_AUTHOR_NAME: 'ralph',
      GIT_AUTHOR_EMAIL: 'ralph@localhost',
      GIT_COMMITTER_NAME: 'ralph',
      GIT_COMMITTER_EMAIL: 'ralph@localhost',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    expect(ours).toBe(theirs);
    expect(git(dir, ['cat-file', '-t', ours])).toBe('commit');
    expect(git(dir, ['log', '-1', '--format=%P %s', ours])).toBe(`${head} ralph checkpoint iter-001-post`);
    expect(() => git(dir, ['fsck', '--strict', '--no-dangling'])).not.toThrow();
    // Written again: the object is there already and is left alone.
    expect(await writeLooseObject(path.join(dir, '.git'), 'commit', text)).toBe(ours);
    // A root commit (no parent).
    const root = await writeLooseObject(
      path.join(dir, '.git'),
      'commit',
      commitText(tree, null, 'm', { name: 'r', email: 'r@r' }, when),
    );
    expect(git(dir, ['log', '-1', '--format=%P|%s', root])).toBe('|m');
  });

  it('creates the object folder again when a git gc removes it while the object is being written', async () => {
    const dir = repo();
    const tree = git(dir, ['write-tree']);
    const text = commitText(tree, null, 'gc race', { name: 'r', email: 'r@r' }, new Date());
    const real = fs.writeFileSync;
    let removed = '';
    const spy = jest.spyOn(fs, 'writeFileSync').mockImplementation((file, data, options) => {
      // The first write finds its folder gone, as after `git prune-packed` removed it empty.
      if (!removed) {
        removed = path.dirname(String(file));
        fs.rmSync(removed, { recursive: true, force: true });
      }
      return real(file, data, options);
    });
    try {
      const id = await writeLooseObject(path.join(dir, '.git'), 'commit', text);
      expect(removed).toBe(path.join(dir, '.git/objects', id.slice(0, 2)));
      expect(spy).toHaveBeenCalledTimes(2);
      expect(git(dir, ['cat-file', '-t', id])).toBe('commit');
    } finally {
      spy.mockRestore();
    }
  });

  it('resolves HEAD from a loose ref, a packed ref, a detached HEAD, an unborn branch and a linked worktree', async () => {
    const dir = repo();
    const head = git(dir, ['rev-parse', 'HEAD']);
    expect(await resolveHead(dirsOf(dir))).toBe(head);
    git(dir, ['pack-refs', '--all']);
    expect(fs.existsSync(path.join(dir, '.git/refs/heads/main'))).toBe(false);
    expect(await resolveHead(dirsOf(dir))).toBe(head);
    git(dir, ['checkout', '-q', '--detach']);
    expect(await resolveHead(dirsOf(dir))).toBe(head);
    git(dir, ['checkout', '-q', '--orphan', 'fresh']);
    expect(await resolveHead(dirsOf(dir))).toBeNull();
    git(dir, ['checkout', '-q', 'main']);
    const wt = path.join(tmp(), 'wt');
    git(dir, ['worktree', 'add', '-q', '-b', 'side', wt]);
    fs.writeFileSync(path.join(wt, 'b.txt'), 'b\n');
    git(wt, ['add', '-A']);
    git(wt, ['commit', '-qm', 'side']);
    const wtDirs = { gitDir: path.join(dir, '.git/worktrees/wt'), commonDir: path.join(dir, '.git') };
    expect(await resolveHead(wtDirs)).toBe(git(wt, ['rev-parse', 'HEAD']));
    expect(await resolveHead({ gitDir: path.join(dir, 'nope'), commonDir: dir })).toBeUndefined();
  });

  it('leaves SHA-256, shared and reftable-like repositories to git', async () => {
    const plain = repo();
    expect(await repoAllowsLooseWrites(dirsOf(plain))).toBe(true);
    const sha256 = tmp();
    git(sha256, ['init', '-q', '--object-format=sha256']);
    expect(await repoAllowsLooseWrites(dirsOf(sha256))).toBe(false);
    const shared = tmp();
    git(shared, ['init', '-q', '--shared=group']);
    expect(await repoAllowsLooseWrites(dirsOf(shared))).toBe(false);
    const reftable = repo();
    fs.appendFileSync(path.join(reftable, '.git/config'), '[extensions]\n\trefStorage = reftable\n');
    expect(await repoAllowsLooseWrites(dirsOf(reftable))).toBe(false);
  });

  it('checkpoints commit through it: valid commits on HEAD, one after another, in a repository git fscks', async () => {
    const dir = repo();
    const head = git(dir, ['rev-parse', 'HEAD']);
    const at = (label: string) => ({ workspace: dir, stateDir: path.join(dir, '.ralph'), loopId: 'L', label });
    fs.writeFileSync(path.join(dir, '.gitignore'), '.ralph/\n');
    const first = await createCheckpoint(at('iter-001-pre'));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    const second = await createCheckpoint(at('iter-001-post'), { diffFrom: first.commit! });
    for (const c of [first, second]) {
      expect(git(dir, ['cat-file', '-t', c.commit!])).toBe('commit');
      expect(git(dir, ['log', '-1', '--format=%P %an <%ae>', c.commit!])).toBe(`${head} ralph <ralph@localhost>`);
    }
    expect(git(dir, ['show', `${second.commit}:a.txt`])).toBe('changed');
    expect(git(dir, ['rev-parse', 'refs/ralph/L/iter-001-post'])).toBe(second.commit);
    expect(() => git(dir, ['fsck', '--strict', '--no-dangling'])).not.toThrow();
  });
});
