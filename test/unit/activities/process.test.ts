import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killLeftover, readTail, resolveExecutable, runLogged } from '../../../src/activities/process';
import { writeJsonAtomic } from '../../../src/state/artifacts';

/** A real temp git repo with one commit, as agents work in. */
function gitRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-git-'));
  const git = (...a: string[]): string => execFileSync('git', a, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  fs.writeFileSync(path.join(dir, 'README.md'), '# repo\n');
  git('add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return dir;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const waitDead = async (pid: number): Promise<boolean> => {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
};

describe('runLogged', () => {
  it('streams output to files, counts bytes and reports the exit code in a git workspace', async () => {
    const ws = gitRepo();
    const r = await runLogged({
      file: 'sh',
      args: ['-c', 'git status --short; echo out; echo err >&2; exit 3'],
      cwd: ws,
      stdoutPath: path.join(ws, '.ralph/out.log'),
      stderrPath: path.join(ws, '.ralph/err.log'),
      deadlineMs: 0,
    });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, cancelled: false });
    expect(fs.readFileSync(path.join(ws, '.ralph/out.log'), 'utf8')).toContain('out');
    expect(fs.readFileSync(path.join(ws, '.ralph/err.log'), 'utf8')).toBe('err\n');
    expect(r.bytes).toBeGreaterThanOrEqual(8);
  });

  it('kills the whole process group, grandchildren included, at the deadline', async () => {
    const ws = gitRepo();
    const r = await runLogged({
      file: 'sh',
      args: ['-c', 'sleep 60 & echo $! > grandchild.pid; wait'],
      cwd: ws,
      stdoutPath: path.join(ws, 'o.log'),
      stderrPath: path.join(ws, 'e.log'),
      deadlineMs: 500,
    });
    expect(r.timedOut).toBe(true);
    expect(await waitDead(Number(fs.readFileSync(path.join(ws, 'grandchild.pid'), 'utf8')))).toBe(true);
  });

  it('kills the group when aborted and heartbeats while running', async () => {
    const ws = gitRepo();
    const ac = new AbortController();
    const beats: number[] = [];
    setTimeout(() => ac.abort(), 700);
    const r = await runLogged({
      file: 'sh',
      args: ['-c', 'while true; do echo tick; sleep 0.1; done'],
      cwd: ws,
      stdoutPath: path.join(ws, 'o.log'),
      stderrPath: path.join(ws, 'e.log'),
      deadlineMs: 0,
      heartbeatEveryMs: 100,
      onHeartbeat: (p) => beats.push(p.bytes),
      signal: ac.signal,
    });
    expect(r.cancelled).toBe(true);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats[beats.length - 1]).toBeGreaterThan(0);
  });

  it('reports a spawn error instead of throwing when the executable is missing', async () => {
    const ws = gitRepo();
    const r = await runLogged({
      file: '/nonexistent/agent',
      args: [],
      cwd: ws,
      stdoutPath: path.join(ws, 'o'),
      stderrPath: path.join(ws, 'e'),
      deadlineMs: 0,
    });
    expect(r.spawnError).toMatch(/ENOENT/);
  });
});

describe('killLeftover', () => {
  it('kills the process group recorded by a crashed attempt, and ignores a stale pid file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-pid-'));
    const orphan = spawn('sh', ['-c', 'sleep 60'], { detached: true, stdio: 'ignore' });
    const pidFile = path.join(dir, 'agent.pid');
    fs.writeFileSync(pidFile, String(orphan.pid));
    expect(killLeftover(pidFile)).toBe(orphan.pid);
    expect(await waitDead(orphan.pid!)).toBe(true);
    expect(killLeftover(pidFile)).toBeUndefined();
    expect(killLeftover(path.join(dir, 'missing.pid'))).toBeUndefined();
  });
});

describe('artifacts', () => {
  it('writes JSON atomically and leaves no temp file behind', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-art-'));
    const file = path.join(dir, 'a/b/state.json');
    writeJsonAtomic(file, { a: 1 });
    writeJsonAtomic(file, { a: 2 });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ a: 2 });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['state.json']);
  });

  it('reads only the tail of a large file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-art-'));
    fs.writeFileSync(path.join(dir, 'big'), 'a'.repeat(10_000) + 'END');
    expect(readTail(path.join(dir, 'big'), 5)).toBe('aaEND');
    expect(readTail(path.join(dir, 'none'), 5)).toBe('');
  });
});

describe('resolveExecutable', () => {
  it('finds names on PATH and relative paths, and nothing else', () => {
    expect(resolveExecutable('sh', '/')).toMatch(/\/sh$/);
    expect(resolveExecutable('definitely-not-a-binary', '/')).toBeUndefined();
    expect(resolveExecutable('./bin/sh', '/')).toBe('/bin/sh');
  });
});
