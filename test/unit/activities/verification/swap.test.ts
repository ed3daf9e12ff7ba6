import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recoverSwap, swapIn, type SwapLoop } from '../../../../src/activities/verification/swap';
import { createCheckpoint } from '../../../../src/activities/workspace/checkpoint';

const git = (dir: string, ...a: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });
const read = (dir: string, p: string): string | undefined => {
  try {
    return fs.readFileSync(path.join(dir, p), 'utf8');
  } catch {
    return undefined;
  }
};
const write = (dir: string, p: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  fs.writeFileSync(path.join(dir, p), text);
};

/** A workspace at its baseline, then the agent's work: a test rewritten, a config and a new test added. */
async function setUp(kind: 'git' | 'dir'): Promise<{ dir: string; loop: SwapLoop }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ralph-swap-${kind}-`));
  write(dir, 'test/a.test.js', 'original test\n');
  write(dir, 'package.json', '{"scripts":{"test":"x"}}\n');
  write(dir, 'src/a.js', 'code v1\n');
  write(dir, '.gitignore', '.ralph/\n');
  if (kind === 'git') {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init');
  }
  const stateDir = path.join(dir, '.ralph');
  const at = { workspace: dir, stateDir, loopId: 'l1' };
  const base = await createCheckpoint({ ...at, label: 'verification-baseline' });
  write(dir, 'test/a.test.js', 'rewritten test\n');
  write(dir, 'src/a.js', 'code v2\n');
  write(dir, 'jest.config.js', 'config\n');
  write(dir, 'test/new.test.js', 'new test\n');
  write(dir, 'package.json', '{"scripts":{"test":"x","pretest":"y"}}\n');
  const post = await createCheckpoint({ ...at, label: 'iter-001-post' });
  return {
    dir,
    loop: {
      stateDir,
      loopId: 'l1',
      baseline: { kind, commit: base.commit, label: 'verification-baseline' },
      post: { kind, commit: post.commit, label: 'iter-001-post' },
    },
  };
}

const plan = {
  restore: ['test/a.test.js'],
  write: { 'package.json': '{"scripts":{"test":"x"}}\n' },
  hide: ['jest.config.js', 'test/new.test.js'],
};

describe.each(['git', 'dir'] as const)('the in-place verification tree (%s workspace)', (kind) => {
  it('swaps the plan in and everything back, held files outside the workspace', async () => {
    const { dir, loop } = await setUp(kind);
    const swap = await swapIn(dir, loop, plan);
    expect(read(dir, 'test/a.test.js')).toBe('original test\n');
    expect(read(dir, 'package.json')).toBe('{"scripts":{"test":"x"}}\n');
    expect(read(dir, 'jest.config.js')).toBeUndefined();
    expect(read(dir, 'test/new.test.js')).toBeUndefined();
    expect(read(dir, 'src/a.js')).toBe('code v2\n');
    // The held files wait where no test runner collects them: not under the state folder.
    expect(swap.scratch.startsWith(loop.stateDir)).toBe(false);
    await swap.unhide(['test/new.test.js']);
    expect(read(dir, 'test/new.test.js')).toBe('new test\n');
    write(dir, 'coverage.txt', 'made by the check\n');
    await swap.undo();
    expect(read(dir, 'test/a.test.js')).toBe('rewritten test\n');
    expect(read(dir, 'package.json')).toBe('{"scripts":{"test":"x","pretest":"y"}}\n');
    expect(read(dir, 'jest.config.js')).toBe('config\n');
    expect(read(dir, 'test/new.test.js')).toBe('new test\n');
    expect(await recoverSwap(loop.stateDir, 'l1')).toBe(0);
  });

  it('puts the work back after a crash mid-check, from the post-run checkpoint when a held file is lost', async () => {
    const { dir, loop } = await setUp(kind);
    const swap = await swapIn(dir, loop, plan);
    // The worker dies here. For a plain folder, the held files also went with the OS temp folder.
    if (kind === 'dir') fs.rmSync(path.dirname(swap.scratch), { recursive: true, force: true });
    expect(await recoverSwap(loop.stateDir, 'l1')).toBe(4);
    expect(read(dir, 'test/a.test.js')).toBe('rewritten test\n');
    expect(read(dir, 'jest.config.js')).toBe('config\n');
    expect(read(dir, 'test/new.test.js')).toBe('new test\n');
    expect(read(dir, 'package.json')).toBe('{"scripts":{"test":"x","pretest":"y"}}\n');
    expect(await recoverSwap(loop.stateDir, 'l1')).toBe(0);
  });
});
