import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SpawnHelperExitedError,
  execProcess,
  spawnerEnabled,
  startLogged,
  stopSpawnHelpers,
} from '../../../src/activities/spawner';
import { runLogged } from '../../../src/activities/process';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-spawner-'));

/** Pids of the live spawn helpers children of this process. */
function helperPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('ralph spawn helper');
      } catch {
        return false;
      }
    })
    .map(Number);
}

afterAll(() => stopSpawnHelpers());

describe('spawner', () => {
  it('runs a process from a helper, with the given cwd, env and stdin, and returns its output and exit code', async () => {
    expect(spawnerEnabled()).toBe(true);
    const dir = tmp();
    const r = await execProcess('sh', ['-c', 'pwd; echo "$RALPH_X"; cat; echo err >&2; exit 4'], {
      cwd: dir,
      env: { PATH: process.env.PATH, RALPH_X: 'from-env' },
      input: 'from-stdin\n',
    });
    expect(r.exitCode).toBe(4);
    expect(r.stdout.toString()).toBe(`${fs.realpathSync(dir)}\nfrom-env\nfrom-stdin\n`);
    expect(r.stderr.toString()).toBe('err\n');
    expect(r.spawnError).toBeUndefined();
    // The process was started by a helper, not by this process.
    const ppid = await execProcess('sh', ['-c', 'echo $PPID'], { cwd: dir, env: process.env });
    expect(helperPids()).toContain(Number(ppid.stdout.toString().trim()));
  });

  it('reports a missing executable as a spawn error, and binary output byte for byte', async () => {
    const missing = await execProcess('ralph-no-such-binary', [], { cwd: tmp(), env: process.env });
    expect(missing.spawnError).toMatch(/ENOENT/);
    expect(missing.errno).toBe('ENOENT');
    expect(missing.exitCode).toBeNull();
    const bytes = await execProcess('head', ['-c', '70000', '/dev/urandom'], { cwd: tmp(), env: process.env });
    expect(bytes.stdout.length).toBe(70000);
  });

  it('stops at maxBuffer and says the output was truncated', async () => {
    const r = await execProcess('sh', ['-c', 'yes | head -c 1000000'], {
      cwd: tmp(),
      env: process.env,
      maxBuffer: 1000,
    });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(1000);
  });

  it('starts a logged process in its own group with output straight to files', async () => {
    const dir = tmp();
    const p = startLogged({
      file: 'sh',
      args: ['-c', 'echo out; echo err >&2; ps -o pgid= -p $$'],
      cwd: dir,
      env: process.env,
      stdoutPath: path.join(dir, 'out'),
      stderrPath: path.join(dir, 'err'),
    });
    const pid = await p.pid;
    const r = await p.done;
    expect(r).toEqual({ exitCode: 0, signal: null });
    const [first, pgid] = fs.readFileSync(path.join(dir, 'out'), 'utf8').trim().split('\n');
    expect(first).toBe('out');
    // Its own process group: the loop kills the whole group on deadline or abort.
    expect(Number(pgid)).toBe(pid);
    expect(fs.readFileSync(path.join(dir, 'err'), 'utf8')).toBe('err\n');
  });

  it('fails the requests in flight when a helper dies, and the next request gets a new helper', async () => {
    const dir = tmp();
    const p = startLogged({
      file: 'sleep',
      args: ['30'],
      cwd: dir,
      env: process.env,
      stdoutPath: path.join(dir, 'out'),
      stderrPath: path.join(dir, 'err'),
    });
    const child = await p.pid;
    const before = helperPids();
    for (const h of before) process.kill(h, 'SIGKILL');
    await expect(p.done).rejects.toBeInstanceOf(SpawnHelperExitedError);
    if (child) process.kill(child, 'SIGKILL');
    const r = await execProcess('echo', ['again'], { cwd: dir, env: process.env });
    expect(r.stdout.toString()).toBe('again\n');
    expect(helperPids().some((h) => !before.includes(h))).toBe(true);
  });

  it('runs processes from this process when RALPH_SPAWNER=off', async () => {
    const dir = tmp();
    process.env.RALPH_SPAWNER = 'off';
    try {
      expect(spawnerEnabled()).toBe(false);
      const r = await execProcess('sh', ['-c', 'echo $PPID; cat'], { cwd: dir, env: process.env, input: 'x' });
      expect(r.stdout.toString()).toBe(`${process.pid}\nx`);
      const logged = await runLogged({
        file: 'sh',
        args: ['-c', 'echo $PPID'],
        cwd: dir,
        stdoutPath: path.join(dir, 'o'),
        stderrPath: path.join(dir, 'e'),
        deadlineMs: 0,
      });
      expect(logged.exitCode).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'o'), 'utf8').trim()).toBe(String(process.pid));
    } finally {
      delete process.env.RALPH_SPAWNER;
    }
  });
});
