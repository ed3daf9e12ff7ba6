/**
 * npm run bench:gates — four quality gates of different durations (0.5, 1, 1.5 and 2 s) run in parallel by ralphLoop on
 * a local dev server, for several iterations. Prints the gates phase's wall time against the slowest gate (target
 * <= 1.2x) and the gate overhead per iteration (wall time beyond the slowest gate, and the gates' share of the
 * iteration). Figures go to bench/results/gates.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as activities from '../src/activities';
import type { LoopResult } from '../src/core/loop-types';
import { readIterationRecords, scriptedWorkspace, startBenchEnv, watchForGates } from './env';
import { percentile, writeResult } from './stats';
import { finishBench } from './verdict';

async function main(): Promise<void> {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? process.argv[2] ?? 8);
  const bench = await startBenchEnv();
  const { env } = bench;
  const taskQueue = 'bench-gates';
  const worker = await bench.createWorker({
    taskQueue,
    workflowsPath: require.resolve('../src/workflows'),
    activities,
  });
  const ws = scriptedWorkspace('ralph-bench-gates-', iterations);
  const gates = [0.5, 1, 1.5, 2].map((s, i) => ({
    name: `gate-${s}s`,
    kind: 'custom' as const,
    // The slowest gate passes only once the agent has written `done`, so the loop runs `iterations` times.
    command: i === 3 ? `sleep ${s}; test -f done` : `sleep ${s}`,
  }));
  try {
    await worker.runUntil(async () => {
      const loopId = `bench-gates-${Date.now()}`;
      const result = (await watchForGates(
        env.client,
        (id) => id === loopId,
        () =>
          env.client.workflow.execute('ralphLoop', {
            taskQueue,
            workflowId: loopId,
            args: [
              {
                prompt: 'bench',
                workspace: ws,
                agent: { adapter: 'scripted', script: 'script.json' },
                completion: {},
                gates: { runOn: 'every-iteration', gates },
                maxIterations: iterations + 1,
              },
            ],
          }),
      )) as LoopResult;
      if (result.status !== 'accepted' || result.iterations !== iterations)
        throw new Error(`unexpected result ${JSON.stringify(result)}`);
      const records = readIterationRecords(ws, loopId);
      const ratio = records.map((r) => r.gatesWallMs! / Math.max(...r.gates!.map((g) => g.durationMs)));
      const overheadMs = records.map((r) => r.gatesWallMs! - Math.max(...r.gates!.map((g) => g.durationMs)));
      const share = records.map((r) => r.gatesWallMs! / r.durationMs);
      const sumOfGates = records.map((r) => r.gates!.reduce((a, g) => a + g.durationMs, 0));
      const figures = {
        iterations,
        gates: gates.map((g) => g.command),
        wallVsSlowest: { p50: +percentile(ratio, 50).toFixed(3), max: +Math.max(...ratio).toFixed(3) },
        gateOverheadMsPerIteration: { p50: percentile(overheadMs, 50), p95: percentile(overheadMs, 95) },
        gatesShareOfIteration: { p50: +percentile(share, 50).toFixed(3) },
        sequentialWouldTakeMs: { p50: percentile(sumOfGates, 50) },
        gatesWallMs: {
          p50: percentile(
            records.map((r) => r.gatesWallMs!),
            50,
          ),
        },
        target: { wallVsSlowest: 1.2 },
        machine: { cpus: os.cpus().length, node: process.version },
        at: new Date().toISOString(),
      };
      const file = writeResult('gates', figures);
      process.stdout.write(
        [
          `4 gates (0.5/1/1.5/2 s) in parallel, ${iterations} iterations`,
          `  gates phase wall time   p50 ${figures.gatesWallMs.p50} ms (sequential would be ${figures.sequentialWouldTakeMs.p50} ms)`,
          `  wall / slowest gate     p50 ${figures.wallVsSlowest.p50}x  max ${figures.wallVsSlowest.max}x (${figures.wallVsSlowest.max <= 1.2 ? 'ok' : 'MISSED'} <= 1.2x)`,
          `  gate overhead/iteration p50 ${figures.gateOverheadMsPerIteration.p50} ms  p95 ${figures.gateOverheadMsPerIteration.p95} ms beyond the slowest gate`,
          `  gates share of iteration p50 ${(figures.gatesShareOfIteration.p50 * 100).toFixed(1)}%`,
          `  written to ${path.relative(process.cwd(), file)}`,
        ].join('\n') + '\n',
      );
      finishBench('gates', { wallVsSlowest: figures.wallVsSlowest.max <= figures.target.wallVsSlowest });
    });
  } finally {
    await bench.teardown();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:gates failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
