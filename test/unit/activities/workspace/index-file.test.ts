import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffCommits } from '../../../../src/activities/workspace/checkpoint';
import { diffIndexes, indexEntry, readIndex, type IndexView } from '../../../../src/activities/workspace/index-file';
import { isStatePath } from '../../../../src/activities/workspace/snapshot';

/** A git repository with its own index file for the test (as a loop's index is), and helpers around it. */
function repo() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-index-file-'));
  const index = path.join(dir, '.git', 'loop-index');
  const git = (args: string[], cwd = dir, extraEnv: Record<string, string> = {}): string =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
      cwd,
      env: { ...process.env, GIT_INDEX_FILE: index, ...extraEnv },
      encoding: 'utf8',
    });
  git(['init', '-q']);
  const write = (p: string, content: string): void => {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), content);
  };
  /** add -A, write-tree, commit-tree: the commit and the index's entries right after. */
  const checkpoint = (parent?: string) => {
    git(['add', '-A']);
    const tree = git(['write-tree']).trim();
    const commit = git(['commit-tree', ...(parent ? ['-p', parent] : []), '-m', 'c', tree]).trim();
    return { commit, entries: readIndex(fs.readFileSync(index)) };
  };
  return { dir, index, git, write, checkpoint };
}

const paths = (v: IndexView | undefined): string[] | undefined =>
  v && Array.from({ length: v.count }, (_, i) => indexEntry(v, i).path);

describe('readIndex / diffIndexes', () => {
  it('gives the changes git diff-tree gives: added, modified, deleted, mode and type changes, file to folder', async () => {
    const r = repo();
    r.write('src/a.ts', 'a\n');
    r.write('src/b.ts', 'b\n');
    r.write('run.sh', 'echo\n');
    r.write('gone.txt', 'bye\n');
    r.write('link-target.txt', 't\n');
    r.write('thing', 'a file\n');
    r.write('ünïcødé/ñame.md', 'x\n');
    r.write('.ralph/loops/x/state.json', '{}');
    r.write('deep/er/still/deeper/file.txt', 'deep\n');
    const pre = r.checkpoint();
    expect(pre.entries).toBeDefined();
    const a = indexEntry(pre.entries!, paths(pre.entries)!.indexOf('src/a.ts'));
    expect(a.mode).toBe('100644');
    expect(a.id).toMatch(/^[0-9a-f]{40}$/);

    r.write('src/a.ts', 'a changed\n');
    r.write('src/new.ts', 'new\n');
    fs.chmodSync(path.join(r.dir, 'run.sh'), 0o755);
    fs.rmSync(path.join(r.dir, 'gone.txt'));
    fs.rmSync(path.join(r.dir, 'link-target.txt'));
    fs.symlinkSync('src/b.ts', path.join(r.dir, 'link-target.txt'));
    fs.rmSync(path.join(r.dir, 'thing'));
    r.write('thing/inside.txt', 'now a folder\n');
    r.write('ünïcødé/ñame.md', 'y\n');
    r.write('.ralph/loops/x/state.json', '{"changed":true}');
    r.write('deep/er/still/deeper/file.txt', 'deeper\n');
    const post = r.checkpoint(pre.commit);

    const ours = diffIndexes(pre.entries!, post.entries!, '', isStatePath);
    const gits = await diffCommits(r.dir, pre.commit, post.commit);
    expect(ours).toEqual(gits);
    expect(ours.map((c) => `${c.status} ${c.path}`)).toEqual([
      'M deep/er/still/deeper/file.txt',
      'D gone.txt',
      'M link-target.txt',
      'M run.sh',
      'M src/a.ts',
      'A src/new.ts',
      'D thing',
      'A thing/inside.txt',
      'M ünïcødé/ñame.md',
    ]);
  });

  it('agrees with git diff-tree on a larger tree with changes spread all over it', async () => {
    const r = repo();
    const name = (i: number): string => `pkg${i % 7}/${i % 3 ? 'src' : 'test'}/f-${i}${i % 5 ? '.ts' : '.md'}`;
    for (let i = 0; i < 1500; i++) r.write(name(i), `v0 ${i}\n`);
    const pre = r.checkpoint();
    for (let i = 0; i < 1500; i += 37) r.write(name(i), `v1 ${i}\n`);
    for (let i = 5; i < 1500; i += 101) fs.rmSync(path.join(r.dir, name(i)));
    for (let i = 1500; i < 1530; i++) r.write(name(i), `new ${i}\n`);
    r.write('pkg3/src-extra.ts', 'between siblings in byte order\n');
    const post = r.checkpoint(pre.commit);
    const ours = diffIndexes(pre.entries!, post.entries!, '', isStatePath);
    expect(ours.length).toBeGreaterThan(80);
    expect(ours).toEqual(await diffCommits(r.dir, pre.commit, post.commit));
  });

  it('reports paths relative to a workspace below the top of the work tree, and only those', async () => {
    const r = repo();
    r.write('app/src/a.ts', 'a\n');
    r.write('other/b.ts', 'b\n');
    const pre = r.checkpoint();
    r.write('app/src/a.ts', 'a2\n');
    r.write('other/b.ts', 'b2\n');
    const post = r.checkpoint(pre.commit);
    const ours = diffIndexes(pre.entries!, post.entries!, 'app/', isStatePath);
    expect(ours).toEqual(await diffCommits(path.join(r.dir, 'app'), pre.commit, post.commit));
    expect(ours.map((c) => c.path)).toEqual(['src/a.ts']);
  });

  it('reads an index of version 3 and a long path; refuses versions it does not read and intent-to-add entries', () => {
    const r = repo();
    const long = `${'d'.repeat(120)}/${'n'.repeat(120)}.txt`;
    r.write(long, 'long\n');
    r.write('a.txt', 'a\n');
    r.git(['add', '-A']);
    r.git(['update-index', '--index-version', '3']);
    expect(paths(readIndex(fs.readFileSync(r.index)))).toEqual(['a.txt', long]);
    r.git(['update-index', '--index-version', '4']);
    expect(readIndex(fs.readFileSync(r.index))).toBeUndefined();
    r.git(['update-index', '--index-version', '2']);
    expect(readIndex(fs.readFileSync(r.index))?.count).toBe(2);
    r.write('later.txt', 'later\n');
    r.git(['add', '-N', 'later.txt']);
    expect(readIndex(fs.readFileSync(r.index))).toBeUndefined();
    expect(readIndex(Buffer.from('not an index at all, clearly'))).toBeUndefined();
  });

  it('refuses a split index', () => {
    const r = repo();
    r.write('a.txt', 'a\n');
    r.git(['-c', 'core.splitIndex=true', 'add', '-A']);
    r.git(['update-index', '--split-index']);
    expect(readIndex(fs.readFileSync(r.index))).toBeUndefined();
  });
});
