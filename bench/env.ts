/**
 * The environment the loop benchmarks run in: a local Temporal dev server with the loop's search attributes, workers
 * on it, and a workspace with a scripted agent whose iteration records are read back afterwards.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { DEFAULT_NAMESPACE, DEV_SERVER_DYNAMIC_CONFIG_ARGS, SearchAttributes } from '../src/core/constants';
import type { IterationRecord, LoopState } from '../src/core/loop-types';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../src/workflows/search-attributes';
import { productionWorkerOptions } from '../src/workers/worker';
import { sharedWorkflowModules } from '../src/workers/workflow-bundle';

// From dist/bench (the npm scripts) and from bench/ (the jest smoke test) alike: the package root's scripts/.
const packageRoot = (): string => {
  let root = __dirname;
  while (!fs.existsSync(path.join(root, 'package.json'))) root = path.dirname(root);
  return root;
};
const { locateTemporal } = require(path.join(packageRoot(), 'scripts', 'temporal-bin.js')) as {
  locateTemporal: (o: object) => { path?: string };
};

/** The product's workflows module (benchmarks that run ralphLoop itself bundle it). */
const PRODUCT_WORKFLOWS = require.resolve('../src/workflows');

/** What a worker of a benchmark runs. */
export interface BenchWorkerOptions {
  taskQueue: string;
  /** Resolved path of the workflows module (`require.resolve(...)` from the benchmark's own file). */
  workflowsPath: string;
  activities: object;
}

/** A running dev server, the means to put workers on it and to stop it. */
export interface BenchEnv {
  env: TestWorkflowEnvironment;
  /** The `temporal` binary the server runs, or undefined when the SDK downloaded one. */
  temporalBin: string | undefined;
  /** Creates a worker on the server; run it with `worker.runUntil(...)`. */
  createWorker(o: BenchWorkerOptions & Partial<WorkerOptions>): Promise<Worker>;
  /** Stops the server. */
  teardown(): Promise<void>;
}

/**
 * Starts a local dev server with the loop's search attributes and dynamic config: the `temporal` binary found (or
 * installed) by scripts/temporal-bin.js, else the SDK's download. Installs a Runtime that logs warnings only (or
 * `o.logLevel`, e.g. `ERROR` for a benchmark whose activities fail on purpose): call it once per process.
 */
export async function startBenchEnv(o: { logLevel?: 'WARN' | 'ERROR'; extraArgs?: string[] } = {}): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger(o.logLevel ?? 'WARN') });
  const temporalBin = locateTemporal({ install: true, quiet: true }).path;
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: temporalBin ? { type: 'existing-path', path: temporalBin } : { type: 'cached-download' },
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
      extraArgs: [...DEV_SERVER_DYNAMIC_CONFIG_ARGS, ...(o.extraArgs ?? [])],
    },
  });
  return {
    env,
    temporalBin,
    // The production worker's options (codec, liveness heartbeats, shutdown grace, activity concurrency limit), with
    // the benchmark's workflows and activities.
    createWorker: ({ taskQueue, workflowsPath, activities, ...rest }) =>
      Worker.create({
        ...productionWorkerOptions({ connection: env.nativeConnection, namespace: DEFAULT_NAMESPACE, taskQueue }),
        workflowsPath,
        // The product's workflows are bundled as the build bundles them: the routing model shared by every loop.
        ...(workflowsPath === PRODUCT_WORKFLOWS ? { bundlerOptions: { preloadModules: sharedWorkflowModules() } } : {}),
        activities,
        ...rest,
      }),
    teardown: () => env.teardown(),
  };
}

/**
 * Makes a temp workspace whose scripted agent (script.json) writes the file `done` at iteration `doneAt` and nothing
 * before it, and returns its path.
 */
export function scriptedWorkspace(prefix: string, doneAt: number, o: { git?: boolean } = {}): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(
    path.join(ws, 'script.json'),
    // A distinct line of code each iteration: a note in a log file, or the same line again, would (rightly) look
    // stuck to the anti-laziness layer, whose stuck-loop detector then asks a human.
    JSON.stringify({
      iterations: { [doneAt]: [{ write: 'done', content: 'x' }] },
      default: [{ run: 'echo "export const v$RALPH_ITERATION = $RALPH_ITERATION;" >> work.ts' }],
    }),
  );
  if (o.git) {
    // A small git repository: a few source files, committed, the state folder ignored.
    fs.mkdirSync(path.join(ws, 'src'));
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(ws, 'src', `m${i}.ts`), `export const m${i} = ${i};\n`);
    fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
    const git = (...a: string[]): void => {
      execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', ...a], {
        cwd: ws,
        stdio: 'ignore',
      });
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'init');
  }
  return ws;
}

/** Reads the record.json of every iteration of loop `loopId` in workspace `ws`. */
export function readIterationRecords(ws: string, loopId: string): IterationRecord[] {
  const dir = path.join(ws, '.ralph', 'loops', loopId, 'iterations');
  return fs
    .readdirSync(dir)
    .map((d) => JSON.parse(fs.readFileSync(path.join(dir, d, 'record.json'), 'utf8')) as IterationRecord);
}

/** Thrown when a benchmark's loop opens a human gate the benchmark did not plan for: it would wait forever. */
export class UnexpectedGateError extends Error {
  override readonly name = 'UnexpectedGateError';
  constructor(
    readonly workflowId: string,
    readonly reason: string,
    readonly title: string,
  ) {
    super(
      `loop ${workflowId} opened a human gate the benchmark did not expect (${reason}: ${title}); ` +
        'a benchmark never waits for a human: fix its agent script or its loop input',
    );
  }
}

/**
 * Runs `fn` (which starts loops and awaits their results) while watching, once a second, for a loop of this
 * benchmark (`isOurs(workflowId)`) waiting for a human (the `RalphAwaitingHuman` search attribute): the first one
 * makes this reject with {@link UnexpectedGateError} instead of waiting forever. Also rejects after `timeoutMs`
 * (BENCH_TIMEOUT_SECONDS, default 1 hour).
 */
export async function watchForGates<T>(
  client: Client,
  isOurs: (workflowId: string) => boolean,
  fn: () => Promise<T>,
  timeoutMs = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 3600) * 1000,
): Promise<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const work = fn();
  // After a gate or the timeout, the loops' results are abandoned (the server is torn down): no unhandled rejection.
  work.catch(() => undefined);
  const watch = async (): Promise<never> => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      if (stopped) return new Promise<never>(() => undefined);
      const query = `${SearchAttributes.RalphAwaitingHuman.name} = true AND ExecutionStatus = 'Running'`;
      for await (const wf of client.workflow.list({ query })) {
        if (!isOurs(wf.workflowId)) continue;
        const state = (await client.workflow
          .getHandle(wf.workflowId)
          .query<LoopState>('status')
          .catch(() => undefined)) as LoopState | undefined;
        const gate = state?.pendingGate;
        throw new UnexpectedGateError(wf.workflowId, gate?.reason ?? 'unknown', gate?.title ?? 'unknown gate');
      }
    }
  };
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`benchmark did not finish within ${timeoutMs / 1000}s (BENCH_TIMEOUT_SECONDS)`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, watch(), timeout]);
  } finally {
    stopped = true;
    clearTimeout(timer);
  }
}

/** CPU seconds of one process from /proc: its own (user + system) and that of its waited-for children. */
function procCpu(pid: number | 'self'): { self: number; children: number; cmd: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    // Fields after the command name: utime(14) stime(15) cutime(16) cstime(17), in clock ticks (100 Hz on Linux).
    return { self: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100, cmd };
  } catch {
    return undefined;
  }
}

/** Pids of the live direct children of this process. */
function childPids(): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds used so far by everything a bench runs on this machine, by part: this process (the worker), the spawn
 * helpers with the git, agent and check processes they ran, the Temporal dev server, and other processes this one
 * ran and waited for. Take it before and after a run and subtract ({@link cpuDelta}). Linux only (/proc).
 */
export type CpuParts = { worker: number; spawners: number; server: number; other: number };
export function cpuNow(): CpuParts {
  const me = procCpu('self');
  const parts: CpuParts = { worker: me?.self ?? NaN, spawners: 0, server: 0, other: me?.children ?? NaN };
  for (const pid of childPids()) {
    const c = procCpu(pid);
    if (!c) continue;
    const total = c.self + c.children;
    if (c.cmd.includes('ralph spawn helper')) parts.spawners += total;
    else if (/temporal/.test(c.cmd) && /server|start-dev/.test(c.cmd)) parts.server += total;
    else parts.other += total;
  }
  return parts;
}

/** `b - a`, part by part. */
export function cpuDelta(a: CpuParts, b: CpuParts): CpuParts {
  return {
    worker: b.worker - a.worker,
    spawners: b.spawners - a.spawners,
    server: b.server - a.server,
    other: b.other - a.other,
  };
}
