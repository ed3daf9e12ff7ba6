/**
 * Starts the processes of activities (git, agents, checks, gates) from small helper processes instead of the worker.
 *
 * Why: `fork()` copies the page tables of the process that calls it, and marks its pages copy-on-write. A worker
 * running 100 loops is a large process (hundreds of MB resident, tens of GB mapped by V8 and its threads), and every
 * spawn blocked its event loop for ~13 ms of kernel time: at 15 processes per iteration that was 75% of the worker's
 * main thread in bench:fleet, and the workflow tasks waiting behind it timed out. A helper is a bare node process of
 * ~40 MB: forking it is cheap, and the worker's event loop only passes messages.
 *
 * `RALPH_SPAWNER=off` runs everything from the worker as before (execa); `RALPH_SPAWNERS` sets how many helpers
 * (default 2). A helper that dies fails the requests it had in flight ({@link SpawnHelperExitedError}) and is
 * replaced on the next request; a helper that cannot be started at all turns the pool off for the process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import execa from 'execa';
import { SPAWN_SERVER_SOURCE } from './server-source';
import { SpawnHelperExitedError } from '../errors';

/** Options of {@link execProcess}. */
export interface ExecOptions {
  cwd: string;
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  input?: string | Buffer;
  /** Most stdout bytes kept; more kills the process and sets `truncated`. Default 1 GiB. */
  maxBuffer?: number;
}

/** What {@link execProcess} observed. */
export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: Buffer;
  stderr: Buffer;
  truncated: boolean;
  /** Set when the process could not be started (e.g. `spawn git ENOENT`); `errno` is the system code. */
  spawnError?: string;
  errno?: string;
}

/** Options of {@link startLogged}. */
export interface LoggedOptions {
  file: string;
  args: string[];
  shell?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  stdoutPath: string;
  stderrPath: string;
}

/** A process started by {@link startLogged}: its pid once known, and its end. */
export interface LoggedProcess {
  /** Resolves with the pid when it started, undefined when it could not start. */
  pid: Promise<number | undefined>;
  done: Promise<{ exitCode: number | null; signal: string | null; spawnError?: string; errno?: string }>;
}

interface Pending {
  resolve: (m: ServerMessage) => void;
  reject: (e: Error) => void;
  onStarted?: (pid: number) => void;
}

interface ServerMessage {
  t: 'ready' | 'started' | 'done';
  id: number;
  pid?: number;
  code?: number | null;
  signal?: string | null;
  stdout?: Uint8Array;
  stderr?: Uint8Array;
  truncated?: boolean;
  error?: string;
  errno?: string;
}

class Helper {
  readonly proc: ChildProcess;
  readonly pending = new Map<number, Pending>();
  dead = false;

  constructor(onDead: (h: Helper) => void) {
    this.proc = spawn(process.execPath, ['-e', SPAWN_SERVER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: process.env,
    });
    this.proc.on('message', (m: ServerMessage) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.t === 'started') return p.onStarted?.(m.pid!);
      if (m.t !== 'done') return;
      this.pending.delete(m.id);
      this.refresh();
      p.resolve(m);
    });
    const die = (code: number | null, signal: string | null): void => {
      if (this.dead) return;
      this.dead = true;
      onDead(this);
      const err = new SpawnHelperExitedError(this.proc.pid, code, signal);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.proc.on('exit', die);
    this.proc.on('error', () => die(null, null));
    this.refresh();
  }

  send(msg: Record<string, unknown>, p: Pending): void {
    const id = nextId++;
    this.pending.set(id, p);
    this.refresh();
    const fail = (e: Error): void => {
      if (!this.pending.has(id)) return;
      this.pending.delete(id);
      this.refresh();
      p.reject(e);
    };
    try {
      this.proc.send({ ...msg, id }, (e) => e && fail(e));
    } catch (e) {
      fail(e as Error);
    }
  }

  /** Keeps the worker alive only while requests are in flight: an idle helper never holds a process open. */
  private refresh(): void {
    const channel = (this.proc as unknown as { channel?: { ref(): void; unref(): void } }).channel;
    if (this.pending.size) {
      this.proc.ref();
      channel?.ref();
    } else {
      this.proc.unref();
      channel?.unref();
    }
  }
}

let nextId = 1;
const helpers: Helper[] = [];
let broken = false;

const poolSize = (): number => {
  const n = Number(process.env.RALPH_SPAWNERS ?? 2);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 16) : 2;
};

/** Whether processes are started through helpers (false after `RALPH_SPAWNER=off` or a helper that cannot start). */
export function spawnerEnabled(): boolean {
  return !broken && process.env.RALPH_SPAWNER !== 'off';
}

/** The helper with the fewest requests in flight, starting one while the pool is not full. */
function pick(): Helper {
  let best: Helper | undefined;
  for (const h of helpers) if (!best || h.pending.size < best.pending.size) best = h;
  if (best && (best.pending.size === 0 || helpers.length >= poolSize())) return best;
  const h = new Helper((dead) => {
    const i = helpers.indexOf(dead);
    if (i >= 0) helpers.splice(i, 1);
  });
  if (h.proc.pid === undefined) {
    broken = true;
    throw new SpawnHelperExitedError(undefined, null, null);
  }
  helpers.push(h);
  return h;
}

const asBuffer = (u: Uint8Array | undefined): Buffer =>
  !u ? Buffer.alloc(0) : Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/**
 * Runs a process to its end and collects its output (for short commands such as git's). Never throws for the
 * process's own failure: a non-zero exit is in `exitCode`, a start failure in `spawnError`. Without helpers it runs
 * the process from this one.
 */
export async function execProcess(file: string, args: string[], o: ExecOptions): Promise<ExecResult> {
  const maxBuffer = o.maxBuffer ?? 1 << 30;
  if (spawnerEnabled()) {
    try {
      const m = await new Promise<ServerMessage>((resolve, reject) =>
        pick().send(
          { t: 'run', file, args, cwd: o.cwd, env: { ...o.env }, input: o.input, maxBuffer },
          { resolve, reject },
        ),
      );
      if (m.error !== undefined)
        return {
          exitCode: null,
          signal: null,
          stdout: Buffer.alloc(0),
          stderr: Buffer.alloc(0),
          truncated: false,
          spawnError: m.error,
          errno: m.errno,
        };
      return {
        exitCode: m.code ?? null,
        signal: m.signal ?? null,
        stdout: asBuffer(m.stdout),
        stderr: asBuffer(m.stderr),
        truncated: !!m.truncated,
      };
    } catch (e) {
      // The helper died under this request: run it here once (git commands are idempotent).
      if (!(e instanceof SpawnHelperExitedError)) throw e;
    }
  }
  const r = await execa(file, args, {
    cwd: o.cwd,
    env: o.env,
    extendEnv: false,
    input: o.input,
    stdin: o.input === undefined ? 'ignore' : undefined,
    reject: false,
    stripFinalNewline: false,
    encoding: null,
    maxBuffer,
  });
  const started = typeof r.exitCode === 'number' || !!r.signal;
  const err = r as unknown as { originalMessage?: string; shortMessage?: string; code?: string };
  return {
    exitCode: typeof r.exitCode === 'number' ? r.exitCode : null,
    signal: r.signal ?? null,
    stdout: (r.stdout as unknown as Buffer) ?? Buffer.alloc(0),
    stderr: (r.stderr as unknown as Buffer) ?? Buffer.alloc(0),
    truncated: !!(r as unknown as { isMaxBuffer?: boolean }).isMaxBuffer,
    spawnError: started ? undefined : (err.originalMessage ?? err.shortMessage ?? 'spawn failed'),
    errno: started ? undefined : err.code,
  };
}

/**
 * Starts a long-running process (an agent, a check, a gate) in its own process group from a helper, its output going
 * straight to two files. The caller keeps control through the pid (kill the group on deadline or abort). Throws
 * {@link SpawnHelperExitedError} from `done` when the helper dies meanwhile (the process itself may live on: the
 * caller's pid file lets a retry kill it). Only call while {@link spawnerEnabled}.
 */
export function startLogged(o: LoggedOptions): LoggedProcess {
  let onPid: (pid: number | undefined) => void = () => undefined;
  const pid = new Promise<number | undefined>((r) => (onPid = r));
  const done = new Promise<ServerMessage>((resolve, reject) => {
    try {
      pick().send(
        {
          t: 'log',
          file: o.file,
          args: o.args,
          shell: o.shell,
          cwd: o.cwd,
          // A plain copy: process.env itself cannot be sent.
          env: { ...o.env },
          input: o.input,
          stdoutPath: o.stdoutPath,
          stderrPath: o.stderrPath,
        },
        { resolve, reject, onStarted: (p) => onPid(p) },
      );
    } catch (e) {
      reject(e as Error);
    }
  }).then(
    (m) => {
      onPid(undefined);
      return m.error !== undefined
        ? { exitCode: null, signal: null, spawnError: m.error, errno: m.errno }
        : { exitCode: m.code ?? null, signal: m.signal ?? null };
    },
    (e: Error) => {
      onPid(undefined);
      throw e;
    },
  );
  return { pid, done };
}

/** Stops every helper (tests; a worker's helpers otherwise end with it). */
export function stopSpawnHelpers(): void {
  for (const h of helpers.splice(0)) h.proc.kill();
}
export { SpawnHelperExitedError };
