import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { spawnerEnabled, startLogged, type LoggedOptions, type LoggedProcess } from './spawner';

/** Options of {@link runLogged}. */
export interface RunLoggedOptions {
  file: string;
  args: string[];
  shell?: boolean;
  cwd: string;
  env?: Record<string, string>;
  input?: string;
  stdoutPath: string;
  stderrPath: string;
  /** Kill the process group after this many ms (0: never). */
  deadlineMs: number;
  /** Called every `heartbeatEveryMs` with the output size so far. */
  onHeartbeat?: (progress: { bytes: number; elapsedMs: number }) => void;
  heartbeatEveryMs?: number;
  /** Aborts the run: the process group is killed and `cancelled` is set. */
  signal?: AbortSignal;
  /** File that holds the child's pid while it runs (a retry kills a leftover group from a crashed worker). */
  pidFile?: string;
}

/** What {@link runLogged} observed. */
export interface RunLoggedResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Set when the process could not be started. */
  spawnError?: string;
  bytes: number;
  durationMs: number;
}

/** Grace period between SIGTERM and SIGKILL when stopping a process group. */
const KILL_GRACE_MS = 2000;

/** Sends a signal to a whole process group; ignores a group that is already gone. */
export function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/**
 * Kills a process group recorded in a pid file by an earlier attempt whose worker died (kill -9 leaves the agent
 * running, reparented). Returns the pid it killed, if any.
 */
export function killLeftover(pidFile: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  killGroup(pid, 'SIGKILL');
  return pid;
}

/**
 * Runs a process in its own process group, its stdout/stderr going to files, heartbeating, and killing the whole
 * group on deadline or abort. The process is started by a spawn helper (see spawner/), or by this process with
 * `RALPH_SPAWNER=off`; either way this process keeps the deadline, the heartbeats and the kills (by process group,
 * from the pid). Never throws for the child's own failures: they are in the result.
 */
export async function runLogged(o: RunLoggedOptions): Promise<RunLoggedResult> {
  fs.mkdirSync(path.dirname(o.stdoutPath), { recursive: true });
  const started = Date.now();
  let timedOut = false;
  let cancelled = false;
  let stopping = false;
  let pid: number | undefined;
  const spec: LoggedOptions = {
    file: o.file,
    args: o.args,
    shell: o.shell,
    cwd: o.cwd,
    // The given variables on top of this process's environment.
    env: { ...process.env, ...o.env },
    input: o.input,
    stdoutPath: o.stdoutPath,
    stderrPath: o.stderrPath,
  };
  const child = spawnerEnabled() ? startLogged(spec) : startHere(spec);
  const stop = (): void => {
    stopping = true;
    if (!pid) return;
    const p = pid;
    killGroup(p, 'SIGTERM');
    setTimeout(() => killGroup(p, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  void child.pid.then((p) => {
    pid = p;
    if (!p) return;
    if (o.pidFile) fs.writeFileSync(o.pidFile, String(p));
    if (stopping) stop();
  });
  const bytes = (): number => fileSize(o.stdoutPath) + fileSize(o.stderrPath);
  const timers: NodeJS.Timeout[] = [];
  if (o.deadlineMs > 0)
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, o.deadlineMs),
    );
  if (o.onHeartbeat) {
    const hb = o.onHeartbeat;
    timers.push(setInterval(() => hb({ bytes: bytes(), elapsedMs: Date.now() - started }), o.heartbeatEveryMs ?? 1000));
  }
  const onAbort = (): void => {
    cancelled = true;
    stop();
  };
  if (o.signal) {
    if (o.signal.aborted) onAbort();
    else o.signal.addEventListener('abort', onAbort, { once: true });
  }
  let r: Awaited<LoggedProcess['done']>;
  try {
    r = await child.done;
  } finally {
    for (const t of timers) clearTimeout(t);
    o.signal?.removeEventListener('abort', onAbort);
  }
  // Children of the agent may still hold the group: make sure nothing outlives the run.
  killGroup(pid, 'SIGKILL');
  if (o.pidFile) fs.rmSync(o.pidFile, { force: true });
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut,
    cancelled,
    spawnError: r.spawnError && !timedOut && !cancelled ? r.spawnError : undefined,
    bytes: bytes(),
    durationMs: Date.now() - started,
  };
}

/** Starts a logged process from this process (`RALPH_SPAWNER=off`): execa, its output piped into the two files. */
function startHere(o: LoggedOptions): LoggedProcess {
  const out = fs.createWriteStream(o.stdoutPath);
  const err = fs.createWriteStream(o.stderrPath);
  const child = execa(o.file, o.args, {
    cwd: o.cwd,
    env: o.env,
    extendEnv: false,
    shell: o.shell,
    detached: true,
    buffer: false,
    reject: false,
    stdin: o.input !== undefined ? 'pipe' : 'ignore',
    windowsHide: true,
  });
  if (o.input !== undefined && child.stdin) child.stdin.end(o.input);
  child.stdout?.pipe(out);
  child.stderr?.pipe(err);
  const done = (async () => {
    const r = await child;
    // Children of the agent may hold the pipes open: kill the group before draining them.
    killGroup(child.pid, 'SIGKILL');
    // The process may exit before its last output is read: drain both pipes (the log files need it).
    await Promise.all([drained(child.stdout), drained(child.stderr)]);
    await Promise.all([finished(out), finished(err)]);
    const e = r as unknown as { originalMessage?: string; shortMessage?: string };
    const started = typeof r.exitCode === 'number' || !!r.signal;
    return {
      exitCode: typeof r.exitCode === 'number' ? r.exitCode : null,
      signal: r.signal ?? null,
      spawnError: r.failed && !started ? (e.originalMessage ?? e.shortMessage ?? 'spawn failed') : undefined,
    };
  })();
  return { pid: Promise.resolve(child.pid), done };
}

const fileSize = (file: string): number => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** Resolves once a child's output pipe has ended (at most 2 s after the group was killed). */
function drained(s: NodeJS.ReadableStream | null | undefined): Promise<void> {
  return new Promise((resolve) => {
    const r = s as (NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean }) | null | undefined;
    if (!r || r.readableEnded || r.destroyed) return resolve();
    const t = setTimeout(resolve, 2000);
    const done = (): void => {
      clearTimeout(t);
      resolve();
    };
    r.once('end', done);
    r.once('close', done);
    r.once('error', done);
  });
}

function finished(s: fs.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (s.writableFinished) return resolve();
    s.once('finish', () => resolve());
    s.once('error', () => resolve());
    s.end();
  });
}

/** Reads at most the last `maxBytes` of a file as UTF-8 ('' when missing). */
export function readTail(file: string, maxBytes: number): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const len = Math.min(size, maxBytes);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, size - len);
    return buf.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Finds an executable: an absolute/relative path that exists, or a name on PATH. */
export function resolveExecutable(file: string, cwd: string, envPath = process.env.PATH ?? ''): string | undefined {
  const isExec = (p: string): boolean => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (file.includes('/')) {
    const abs = path.resolve(cwd, file);
    return isExec(abs) ? abs : undefined;
  }
  for (const dir of envPath.split(path.delimiter)) {
    if (dir && isExec(path.join(dir, file))) return path.join(dir, file);
  }
  return undefined;
}
