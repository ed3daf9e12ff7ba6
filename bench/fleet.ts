/**
 * npm run bench:fleet — many loops on one worker.
 *
 * N loops (BENCH_LOOPS, default 100) of K iterations each (BENCH_ITERATIONS, default 10) started at once on one worker
 * of one dev server, with a trivial shell agent through the `command` adapter (it appends a line naming the iteration
 * to a source file, and writes `done` at iteration K) and `test -f done` as the completion check, each loop in its own
 * git workspace. Run with the anti-laziness layer on and off (BENCH_LAYERS, default `on,off`), each in a fresh process
 * with its own dev server and worker. Per run: iterations per second (wall time from starting the loops to the last
 * result, starting included), iteration latency p50/p95 and orchestration overhead (iteration minus agent and check),
 * the worker process's peak RSS and its RSS trend over the run (the soak: MB per 100 iterations over the second half),
 * and CPU seconds per iteration by process: the worker, the spawn helpers with the git, agent and check processes they
 * ran, and the dev server (they share the machine's cores, so together they bound the rate).
 * Targets: >= 25 it/s with the layer on and >= 0.6x the rate with it off; RSS <= 500 MB at 100 loops and flat. Those
 * runs have the agent sandbox off: the targets are the orchestrator's. A third run (`sandbox`) has the layer on and
 * every agent run sandboxed, to report what the sandbox costs per run (no target: a real agent's run takes minutes).
 * Figures go to bench/results/fleet.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import type { LoopResult } from '../src/core/loop-types';
import { DEFAULT_NAMESPACE } from '../src/core/constants';
import { createWorker } from '../src/workers/worker';
import { cpuDelta, cpuNow, readIterationRecords, startBenchEnv, watchForGates, type CpuParts } from './env';
import { percentile, regressionSlope, writeResult } from './stats';
import { finishBench } from './verdict';

const LOOPS = Number(process.env.BENCH_LOOPS ?? 100);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
/**
 * `on` and `off`: the anti-laziness layer on or off, the agent unsandboxed (the targets measure the orchestrator);
 * `sandbox`: the layer on and every agent run under the agent sandbox (its own cost per run, reported, no target).
 */
type Layer = 'on' | 'off' | 'sandbox';
const LAYERS = (process.env.BENCH_LAYERS ?? 'on,off,sandbox').split(',').map((s) => s.trim());
const TARGETS = { itPerSecOn: 25, onVsOff: 0.6, rssMb: 500 };

/** A git repository with one source file, for one loop. */
function gitWorkspace(root: string, i: number): string {
  const ws = path.join(root, `ws-${String(i).padStart(3, '0')}`);
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'work.ts'), 'export const v0 = 0;\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  const git = (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', ...a], {
      cwd: ws,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return ws;
}

interface RunFigures {
  layer: Layer;
  loops: number;
  iterationsPerLoop: number;
  iterations: number;
  wallSeconds: number;
  iterationsPerSecond: number;
  iterationMs: { p50: number; p95: number };
  overheadMs: { p50: number; p95: number };
  rssMb: { start: number; peak: number; end: number; slopeMbPer100Iterations: number };
  /** CPU seconds per iteration by process: worker, spawn helpers with what they ran, dev server, other. */
  cpuSecondsPerIteration: CpuParts & { total: number };
}

/**
 * Each layer runs in a fresh process (its own dev server and worker) when more than one is asked for: the second
 * layer must not inherit the first one's heap, caches and server history, or its RSS and rate say little.
 */
async function main(): Promise<void> {
  for (const layer of LAYERS)
    if (layer !== 'on' && layer !== 'off' && layer !== 'sandbox')
      throw new Error(`BENCH_LAYERS: '${layer}' is not on, off or sandbox`);
  const childOut = process.env.BENCH_FLEET_CHILD_OUT;
  if (childOut) {
    const r = await runLayers(LAYERS as Layer[]);
    fs.writeFileSync(childOut, JSON.stringify(r.runs));
    return;
  }
  let runs: RunFigures[];
  let temporalBin: string | undefined;
  if (LAYERS.length === 1) ({ runs, temporalBin } = await runLayers(LAYERS as Layer[]));
  else {
    runs = [];
    for (const layer of LAYERS) {
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-fleet-out-')), 'runs.json');
      const r = spawnSync(process.execPath, [__filename], {
        env: { ...process.env, BENCH_LAYERS: layer, BENCH_FLEET_CHILD_OUT: out },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (r.status !== 0) throw new Error(`the layer-${layer} run exited ${r.status ?? r.signal}`);
      runs.push(...(JSON.parse(fs.readFileSync(out, 'utf8')) as RunFigures[]));
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  }
  const on = runs.find((r) => r.layer === 'on');
  const off = runs.find((r) => r.layer === 'off');
  const ratio = on && off ? +(on.iterationsPerSecond / off.iterationsPerSecond).toFixed(2) : undefined;
  const verdict = {
    itPerSecOn: on ? on.iterationsPerSecond >= TARGETS.itPerSecOn : undefined,
    onVsOff: ratio === undefined ? undefined : ratio >= TARGETS.onVsOff,
    rss: runs.every((r) => r.rssMb.peak <= TARGETS.rssMb),
  };
  const file = writeResult('fleet', {
    runs,
    onVsOff: ratio,
    targets: TARGETS,
    verdict,
    machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)), node: process.version },
    temporal: temporalBin ?? process.env.TEMPORAL_CLI_PATH ?? 'found by scripts/temporal-bin.js',
    at: new Date().toISOString(),
  });
  const lines = runs.map(
    (r) =>
      `  layer ${r.layer.padEnd(3)}  ${r.iterationsPerSecond} it/s (${r.iterations} in ${r.wallSeconds}s)  ` +
      `iteration p50 ${r.iterationMs.p50} / p95 ${r.iterationMs.p95} ms  overhead p50 ${r.overheadMs.p50} / p95 ${r.overheadMs.p95} ms  ` +
      `RSS peak ${r.rssMb.peak} MB (slope ${r.rssMb.slopeMbPer100Iterations} MB/100 it)  ` +
      `CPU/it ${r.cpuSecondsPerIteration.total} s (worker ${r.cpuSecondsPerIteration.worker}, spawners ${r.cpuSecondsPerIteration.spawners}, server ${r.cpuSecondsPerIteration.server}, other ${r.cpuSecondsPerIteration.other})`,
  );
  process.stdout.write(
    [
      `${LOOPS} loops x ${ITERATIONS} iterations on one worker (shell agent, git workspaces), ${os.cpus().length} cores`,
      ...lines,
      ratio !== undefined ? `  on / off ${ratio}x (target >= ${TARGETS.onVsOff}x)` : '',
      runs.some((r) => r.layer === 'sandbox')
        ? '  sandbox: the layer on with every agent run under the sandbox (no target: its cost per agent run)'
        : '',
      `  written to ${path.relative(process.cwd(), file)}`,
    ]
      .filter(Boolean)
      .join('\n') + '\n',
  );
  finishBench('fleet', verdict);
}

/** Runs the layers one after the other on one fresh dev server and worker of this process. */
async function runLayers(layers: Layer[]): Promise<{ runs: RunFigures[]; temporalBin?: string }> {
  const bench = await startBenchEnv();
  const { env } = bench;
  const taskQueue = 'bench-fleet';
  const worker = await createWorker({
    connection: env.nativeConnection,
    namespace: DEFAULT_NAMESPACE,
    taskQueue,
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-bench-fleet-'));
  const runs: RunFigures[] = [];
  try {
    await worker.runUntil(async () => {
      for (const layer of layers) runs.push(await fleetRun(layer, path.join(root, layer)));
    });
  } finally {
    await bench.teardown();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { runs, temporalBin: bench.temporalBin };

  async function fleetRun(layer: Layer, dir: string): Promise<RunFigures> {
    fs.mkdirSync(dir, { recursive: true });
    const workspaces = Array.from({ length: LOOPS }, (_, i) => gitWorkspace(dir, i));
    const prefix = `bench-fleet-${layer}-${Date.now()}-`;
    const ids = workspaces.map((_, i) => `${prefix}${i}`);
    const samples: { t: number; rss: number; done: number }[] = [];
    let done = 0;
    const sample = (): void => {
      samples.push({ t: Date.now(), rss: process.memoryUsage().rss / 1e6, done });
    };
    sample();
    const timer = setInterval(sample, 250);
    const cpu0 = cpuNow();
    const t0 = Date.now();
    try {
      const results = await watchForGates(
        env.client,
        (id) => id.startsWith(prefix),
        async () => {
          const handles = await Promise.all(
            workspaces.map((ws, i) =>
              env.client.workflow.start('ralphLoop', {
                taskQueue,
                workflowId: ids[i],
                args: [
                  {
                    prompt: 'append a line to src/work.ts',
                    workspace: ws,
                    agent: {
                      adapter: 'command',
                      command: [
                        'sh',
                        '-c',
                        `echo "export const v{iteration} = {iteration};" >> src/work.ts; ` +
                          `if [ {iteration} -ge ${ITERATIONS} ]; then touch done; fi; echo ok`,
                      ],
                    },
                    completion: { command: 'test -f done' },
                    maxIterations: ITERATIONS + 1,
                    ...(layer === 'off' ? { persistence: { enabled: false } } : {}),
                    sandbox: { mode: layer === 'sandbox' ? 'enforce' : 'off' },
                  },
                ],
              }),
            ),
          );
          return Promise.all(
            handles.map(async (h) => {
              const r = (await h.result()) as LoopResult;
              done += r.iterations;
              return r;
            }),
          );
        },
      );
      const wallMs = Date.now() - t0;
      const cpu = cpuDelta(cpu0, cpuNow());
      sample();
      const bad = results.filter((r) => r.status !== 'accepted' || r.iterations !== ITERATIONS);
      if (bad.length)
        throw new Error(`${bad.length} loop(s) ended unexpectedly, e.g. ${JSON.stringify(bad[0]).slice(0, 500)}`);
      const records = workspaces.flatMap((ws, i) => readIterationRecords(ws, ids[i]));
      const iterMs = records.map((r) => r.durationMs);
      const overhead = records.map((r) => r.durationMs - r.agent.durationMs - (r.check?.durationMs ?? 0));
      const n = records.length;
      const rss = samples.map((s) => s.rss);
      // The soak: RSS against iterations done over the second half of the run (least squares, MB per 100 iterations).
      const half = samples.filter((s) => s.done >= n / 2);
      const slope = regressionSlope(half.map((s) => [s.done, s.rss]));
      return {
        layer,
        loops: LOOPS,
        iterationsPerLoop: ITERATIONS,
        iterations: n,
        wallSeconds: +(wallMs / 1000).toFixed(1),
        iterationsPerSecond: +(n / (wallMs / 1000)).toFixed(1),
        iterationMs: { p50: percentile(iterMs, 50), p95: percentile(iterMs, 95) },
        overheadMs: { p50: percentile(overhead, 50), p95: percentile(overhead, 95) },
        rssMb: {
          start: Math.round(rss[0]),
          peak: Math.round(Math.max(...rss)),
          end: Math.round(rss[rss.length - 1]),
          slopeMbPer100Iterations: Number.isFinite(slope) ? +(slope * 100).toFixed(1) : 0,
        },
        cpuSecondsPerIteration: {
          worker: +(cpu.worker / n).toFixed(4),
          spawners: +(cpu.spawners / n).toFixed(4),
          server: +(cpu.server / n).toFixed(4),
          other: +(cpu.other / n).toFixed(4),
          total: +((cpu.worker + cpu.spawners + cpu.server + cpu.other) / n).toFixed(4),
        },
      };
    } finally {
      clearInterval(timer);
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:fleet failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
