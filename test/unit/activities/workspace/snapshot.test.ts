import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { snapshotWorkspace } from '../../../../src/activities/workspace/snapshot';
import { diffSnapshots } from '../../../../src/core/snapshot-diff';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-snap-'));
const write = (dir: string, rel: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const gitIn =
  (dir: string) =>
  (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: dir, encoding: 'utf8' });
/** What git itself says a file's blob id is. */
const hashObject = (dir: string, rel: string): string =>
  execFileSync('git', ['hash-object', rel], { cwd: dir, encoding: 'utf8' }).trim();

/** A real temp repo with one commit: sources, a test file, a .gitignore. */
function gitRepo(): string {
  const dir = tmp();
  const git = gitIn(dir);
  git('init', '-q');
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  write(dir, 'src/b.ts', 'export const b = 2;\n');
  write(dir, 'test/a.test.ts', "it('a', () => {});\n");
  write(dir, 'docs/old.md', 'old\n');
  write(dir, '.gitignore', 'dist/\n*.log\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

describe('snapshotWorkspace', () => {
  it('lists tracked and untracked-not-ignored files with git blob ids when the repo has changes', async () => {
    const dir = gitRepo();
    const git = gitIn(dir);
    write(dir, 'src/a.ts', 'export const a = 42;\n'); // modified, unstaged
    write(dir, 'src/b.ts', 'export const b = 3;\n');
    git('add', 'src/b.ts'); // modified, staged
    fs.rmSync(path.join(dir, 'test/a.test.ts')); // deleted
    git('mv', 'docs/old.md', 'docs/new.md'); // renamed
    write(dir, 'src/new.ts', 'new\n'); // untracked
    write(dir, 'deep/er/x.txt', 'x\n'); // untracked in a new folder
    write(dir, 'dist/out.js', 'built\n'); // ignored
    write(dir, 'run.log', 'log\n'); // ignored
    write(dir, '.ralph/loops/l/state.json', '{}\n'); // state folder
    fs.symlinkSync('src/a.ts', path.join(dir, 'link'));

    const s = await snapshotWorkspace({ workspace: dir });

    expect(s.kind).toBe('git');
    expect(s.head).toBe(git('rev-parse', 'HEAD').trim());
    expect(Object.keys(s.files).sort()).toEqual(
      ['.gitignore', 'deep/er/x.txt', 'docs/new.md', 'link', 'src/a.ts', 'src/b.ts', 'src/new.ts'].sort(),
    );
    for (const f of Object.keys(s.files).filter((f) => f !== 'link')) expect(s.files[f]).toBe(hashObject(dir, f));
    // git stores a symlink as its target.
    expect(s.files.link).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: 'src/a.ts' }).toString().trim());
  });

  it('does not write the user index', async () => {
    const dir = gitRepo();
    write(dir, 'src/a.ts', 'changed\n');
    const index = path.join(dir, '.git/index');
    const before = fs.readFileSync(index);
    const mtime = fs.statSync(index).mtimeMs;
    await snapshotWorkspace({ workspace: dir });
    expect(fs.readFileSync(index).equals(before)).toBe(true);
    expect(fs.statSync(index).mtimeMs).toBe(mtime);
  });

  it('returns a null head and the untracked files when the repo has no commit yet', async () => {
    const dir = tmp();
    gitIn(dir)('init', '-q');
    write(dir, 'a.txt', 'a\n');
    write(dir, '.gitignore', 'b.txt\n');
    write(dir, 'b.txt', 'b\n');
    const s = await snapshotWorkspace({ workspace: dir });
    expect(s).toEqual({
      kind: 'git',
      head: null,
      files: { '.gitignore': hashObject(dir, '.gitignore'), 'a.txt': hashObject(dir, 'a.txt') },
    });
  });

  it('lists only the workspace folder, with paths relative to it, when the workspace is inside a repo', async () => {
    const dir = gitRepo();
    write(dir, 'src/a.ts', 'changed\n');
    write(dir, 'src/c.ts', 'c\n');
    write(dir, 'outside.txt', 'o\n');
    const s = await snapshotWorkspace({ workspace: path.join(dir, 'src') });
    expect(Object.keys(s.files).sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(s.files['a.ts']).toBe(hashObject(dir, 'src/a.ts'));
  });

  it('walks a plain folder, skipping .git, .ralph and node_modules', async () => {
    const dir = tmp();
    write(dir, 'a.txt', 'a\n');
    write(dir, 'sub/b.bin', '\u0000\u0001binary');
    write(dir, 'node_modules/x/index.js', 'x\n');
    write(dir, 'sub/node_modules/y.js', 'y\n');
    write(dir, '.ralph/state.json', '{}\n');
    write(dir, 'empty', '');
    const s = await snapshotWorkspace({ workspace: dir });
    expect(s.kind).toBe('dir');
    expect(s.head).toBeNull();
    expect(Object.keys(s.files).sort()).toEqual(['a.txt', 'empty', 'sub/b.bin']);
    for (const f of Object.keys(s.files)) expect(s.files[f]).toBe(hashObject(dir, f));
  });
});

describe('diffSnapshots', () => {
  it.each([
    ['no change', { a: '1' }, { a: '1' }, { added: [], modified: [], deleted: [] }],
    ['an added file', { a: '1' }, { a: '1', b: '2' }, { added: ['b'], modified: [], deleted: [] }],
    ['a modified file', { a: '1' }, { a: '2' }, { added: [], modified: ['a'], deleted: [] }],
    ['a deleted file', { a: '1', b: '2' }, { a: '1' }, { added: [], modified: [], deleted: ['b'] }],
    ['a rename (delete + add)', { 'x/a': '1' }, { 'y/a': '1' }, { added: ['y/a'], modified: [], deleted: ['x/a'] }],
    [
      'all at once, sorted',
      { z: '1', m: '1', c: '1' },
      { z: '2', b: '1', a: '1', c: '1' },
      { added: ['a', 'b'], modified: ['z'], deleted: ['m'] },
    ],
    ['from empty', {}, { a: '1' }, { added: ['a'], modified: [], deleted: [] }],
    [
      'a file named __proto__',
      {},
      Object.fromEntries([['__proto__', '1']]),
      { added: ['__proto__'], modified: [], deleted: [] },
    ],
  ])('reports %s', (_name, before, after, expected) => {
    expect(diffSnapshots({ files: before }, { files: after })).toEqual(expected);
  });
});
