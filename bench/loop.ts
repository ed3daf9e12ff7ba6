/**
 * npm run bench:loop — per-iteration orchestration overhead of ralphLoop on a local dev server.
 *
 * One loop of N iterations (default 200) with an instant scripted agent and a trivial completion check; overhead of an
 * iteration = its wall time in the workflow minus the agent process's and the check's own time. In the same run, the
 * round-trip of a no-op activity on the same server is measured as the floor. Targets: p50 < 50 ms, p95 < 100 ms,
 * <= 20 history events per iteration. Figures go to bench/results/loop.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as activities from '../src/activities';
import type { LoopResult } from '../src/core/loop-types';
import { readIterationRecords, scriptedWorkspace, startBenchEnv, watchForGates } from './env';
import { percentile, writeResult } from './stats';

/** `BENCH_ANTI_LAZINESS=off` measures the bare loop (no checkpoints, no detection pass). */
const ANTI_LAZINESS = process.env.BENCH_ANTI_LAZINESS !== 'off';

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_ITERATIONS ?? process.argv[2] ?? 200);
  const bench = await startBenchEnv();
  const { env } = bench;
  const taskQueue = 'bench-loop';
  const worker = await bench.createWorker({
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities: { ...activities, noop: async () => undefined },
  });
  const ws = scriptedWorkspace('ralph-bench-', n);
  try {
    await worker.runUntil(async () => {
      // Warm-up: first workflow task and bundle load are not part of steady state.
      await env.client.workflow.execute('noopActivityLoop', {
        taskQueue,
        workflowId: `bench-warmup-${Date.now()}`,
        args: [5],
      });
      const floor = (await env.client.workflow.execute('noopActivityLoop', {
        taskQueue,
        workflowId: `bench-floor-${Date.now()}`,
        args: [n],
      })) as number[];

      const loopId = `bench-loop-${Date.now()}`;
      const t0 = Date.now();
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
                completion: { command: 'test -f done' },
                maxIterations: n + 1,
                ...(ANTI_LAZINESS ? {} : { persistence: { enabled: false } }),
              },
            ],
          }),
      )) as LoopResult;
      const wallMs = Date.now() - t0;
      if (result.status !== 'accepted' || result.iterations !== n)
        throw new Error(`unexpected result ${JSON.stringify(result)}`);

      const records = readIterationRecords(ws, loopId);
      const overhead = records.map((r) => r.durationMs - r.agent.durationMs - (r.check?.durationMs ?? 0));
      const agentMs = records.map((r) => r.agent.durationMs);

      let events = 0;
      let runs = 0;
      for await (const wf of env.client.workflow.list({ query: `WorkflowId = '${loopId}'` })) {
        const h = await env.client.workflow.getHandle(loopId, wf.runId).fetchHistory();
        events += h.events?.length ?? 0;
        runs++;
      }
      const figures = {
        antiLaziness: ANTI_LAZINESS,
        iterations: n,
        runs,
        wallSeconds: +(wallMs / 1000).toFixed(1),
        overheadMs: { p50: percentile(overhead, 50), p95: percentile(overhead, 95), max: Math.max(...overhead) },
        agentProcessMs: { p50: percentile(agentMs, 50), p95: percentile(agentMs, 95) },
        noopActivityRoundTripMs: { p50: percentile(floor, 50), p95: percentile(floor, 95) },
        ratioToFloor: {
          p50: +(percentile(overhead, 50) / Math.max(1, percentile(floor, 50))).toFixed(2),
          p95: +(percentile(overhead, 95) / Math.max(1, percentile(floor, 95))).toFixed(2),
        },
        historyEventsPerIteration: +(events / n).toFixed(2),
        targets: { overheadP50Ms: 50, overheadP95Ms: 100, historyEventsPerIteration: 20 },
        machine: { cpus: os.cpus().length, node: process.version, temporal: bench.temporalBin ?? 'sdk-download' },
        at: new Date().toISOString(),
      };
      const file = writeResult(ANTI_LAZINESS ? 'loop' : 'loop-no-anti-laziness', figures);
      const ok = (v: number, t: number): string => (v <= t ? 'ok' : 'MISSED');
      process.stdout.write(
        [
          `ralphLoop orchestration overhead, ${n} iterations (${runs} runs via continue-as-new), anti-laziness layer ${ANTI_LAZINESS ? 'on' : 'off'}, wall ${figures.wallSeconds}s`,
          `  overhead per iteration   p50 ${figures.overheadMs.p50} ms (${ok(figures.overheadMs.p50, 50)} < 50)   p95 ${figures.overheadMs.p95} ms (${ok(figures.overheadMs.p95, 100)} < 100)`,
          `  no-op activity floor     p50 ${figures.noopActivityRoundTripMs.p50} ms   p95 ${figures.noopActivityRoundTripMs.p95} ms   ratio p50 ${figures.ratioToFloor.p50}x p95 ${figures.ratioToFloor.p95}x`,
          `  agent process (scripted) p50 ${figures.agentProcessMs.p50} ms   p95 ${figures.agentProcessMs.p95} ms (not overhead)`,
          `  history events/iteration ${figures.historyEventsPerIteration} (${ok(figures.historyEventsPerIteration, 20)} <= 20)`,
          `  written to ${path.relative(process.cwd(), file)}`,
        ].join('\n') + '\n',
      );
    });
  } finally {
    await bench.teardown();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:loop failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
