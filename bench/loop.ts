/**
 * npm run bench:loop — per-iteration orchestration overhead of ralphLoop on a local dev server, with the anti-laziness
 * layer on and off, side by side in one run.
 *
 * Loops of an instant scripted agent and a trivial completion check in a small git repository; overhead of an
 * iteration = its wall time in the workflow minus the agent process's and the check's own time. N iterations per
 * layer (BENCH_ITERATIONS, default 200), run in alternating halves (on, off, off, on) on the same server and worker so
 * neither layer gets the quieter minutes. In the same run, the round-trip of a no-op activity is measured as the
 * floor. Targets: bare loop p50 < 50 ms, p95 < 100 ms, <= 20 history events per iteration; the layer (checkpoints,
 * detection pass, state) <= 25 ms p50 beyond the bare loop. BENCH_LAYERS=on or off runs one layer only.
 * Figures go to bench/results/loop.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as activities from '../src/activities';
import type { WorkflowHandle } from '@temporalio/client';
import type { LoopResult } from '../src/core/loop-types';
import { readIterationRecords, scriptedWorkspace, startBenchEnv, watchForGates } from './env';
import { percentile, writeResult } from './stats';
import { finishBench } from './verdict';

type Layer = 'on' | 'off';
const LAYERS: Layer[] = (process.env.BENCH_LAYERS ?? (process.env.BENCH_ANTI_LAZINESS === 'off' ? 'off' : 'on,off'))
  .split(',')
  .map((s) => s.trim())
  .map((s) => {
    if (s !== 'on' && s !== 'off') throw new Error(`BENCH_LAYERS: '${s}' is not on or off`);
    return s;
  });
const TARGETS = { overheadP50Ms: 50, overheadP95Ms: 100, historyEventsPerIteration: 20, layerCostP50Ms: 25 };

/** Figures of one layer over all its loops. */
interface LayerFigures {
  iterations: number;
  runs: number;
  overheadMs: { p50: number; p95: number; max: number };
  agentProcessMs: { p50: number; p95: number };
  ratioToFloor: { p50: number; p95: number };
  historyEventsPerIteration: number;
  /**
   * Where an iteration's overhead goes, p50 per part, from the history's event times and the agent activity's result:
   * the detection pass (inside the agent's activity), the rest of that activity beyond the agent, the check and the
   * detection pass (prompt, pre-run checkpoint, process start), and the workflow's side (dispatch, workflow tasks,
   * state written).
   */
  breakdownMs: { detectionPass: number; activityOther: number; workflow: number };
}

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
  const workspaces: string[] = [];
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

      // Alternating halves: on, off, off, on (each layer gets an early and a late slot).
      const half = Math.max(1, Math.floor(n / 2));
      const order: Layer[] = LAYERS.length === 1 ? [LAYERS[0], LAYERS[0]] : ['on', 'off', 'off', 'on'];
      const overhead: Record<Layer, number[]> = { on: [], off: [] };
      const agentMs: Record<Layer, number[]> = { on: [], off: [] };
      const events: Record<Layer, number> = { on: 0, off: 0 };
      const runs: Record<Layer, number> = { on: 0, off: 0 };
      const parts: Record<Layer, { detection: number[]; activityOther: number[]; activity: number[] }> = {
        on: { detection: [], activityOther: [], activity: [] },
        off: { detection: [], activityOther: [], activity: [] },
      };
      const t0 = Date.now();
      for (const [i, layer] of order.entries()) {
        const iterations = i < 2 || LAYERS.length === 1 ? half : n - half;
        if (iterations < 1) continue;
        const ws = scriptedWorkspace('ralph-bench-', iterations, { git: true });
        workspaces.push(ws);
        const loopId = `bench-loop-${layer}-${i}-${Date.now()}`;
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
                  maxIterations: iterations + 1,
                  ...(layer === 'on' ? {} : { persistence: { enabled: false } }),
                },
              ],
            }),
        )) as LoopResult;
        if (result.status !== 'accepted' || result.iterations !== iterations)
          throw new Error(`unexpected result (layer ${layer}): ${JSON.stringify(result).slice(0, 500)}`);
        for (const r of readIterationRecords(ws, loopId)) {
          overhead[layer].push(r.durationMs - r.agent.durationMs - (r.check?.durationMs ?? 0));
          agentMs[layer].push(r.agent.durationMs);
        }
        for await (const wf of env.client.workflow.list({ query: `WorkflowId = '${loopId}'` })) {
          const h = await env.client.workflow.getHandle(loopId, wf.runId).fetchHistory();
          events[layer] += h.events?.length ?? 0;
          runs[layer]++;
          for (const a of agentActivities(h.events ?? [])) {
            parts[layer].activity.push(a.activityMs - a.agentMs - a.checkMs);
            parts[layer].detection.push(a.detectionMs);
            parts[layer].activityOther.push(a.activityMs - a.agentMs - a.checkMs - a.detectionMs);
          }
        }
      }
      const wallMs = Date.now() - t0;
      const figures = (layer: Layer): LayerFigures => {
        const o = overhead[layer];
        return {
          iterations: o.length,
          runs: runs[layer],
          overheadMs: { p50: percentile(o, 50), p95: percentile(o, 95), max: Math.max(...o) },
          agentProcessMs: { p50: percentile(agentMs[layer], 50), p95: percentile(agentMs[layer], 95) },
          ratioToFloor: {
            p50: +(percentile(o, 50) / Math.max(1, percentile(floor, 50))).toFixed(2),
            p95: +(percentile(o, 95) / Math.max(1, percentile(floor, 95))).toFixed(2),
          },
          historyEventsPerIteration: +(events[layer] / Math.max(1, o.length)).toFixed(2),
          breakdownMs: {
            detectionPass: percentile(parts[layer].detection, 50),
            activityOther: percentile(parts[layer].activityOther, 50),
            workflow: percentile(o, 50) - percentile(parts[layer].activity, 50),
          },
        };
      };
      const layers: Partial<Record<Layer, LayerFigures>> = {};
      for (const l of LAYERS) layers[l] = figures(l);
      const cost =
        layers.on && layers.off
          ? {
              p50: layers.on.overheadMs.p50 - layers.off.overheadMs.p50,
              p95: layers.on.overheadMs.p95 - layers.off.overheadMs.p95,
            }
          : undefined;
      const out = {
        iterationsPerLayer: n,
        workspace: 'git repository, 22 files',
        wallSeconds: +(wallMs / 1000).toFixed(1),
        layers,
        antiLazinessCostMs: cost,
        noopActivityRoundTripMs: { p50: percentile(floor, 50), p95: percentile(floor, 95) },
        targets: TARGETS,
        verdict: {
          bareOverheadP50: layers.off ? layers.off.overheadMs.p50 <= TARGETS.overheadP50Ms : undefined,
          bareOverheadP95: layers.off ? layers.off.overheadMs.p95 <= TARGETS.overheadP95Ms : undefined,
          layerCostP50: cost ? cost.p50 <= TARGETS.layerCostP50Ms : undefined,
          historyEvents: Object.values(layers).every(
            (l) => l.historyEventsPerIteration <= TARGETS.historyEventsPerIteration,
          ),
        },
        machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)), node: process.version },
        temporal: bench.temporalBin ?? 'sdk-download',
        at: new Date().toISOString(),
      };
      const file = writeResult('loop', out);
      const ok = (v: number, t: number): string => (v <= t ? 'ok' : 'MISSED');
      const lines = LAYERS.map((l) => {
        const f = layers[l]!;
        return (
          `  layer ${l.padEnd(3)}  overhead p50 ${f.overheadMs.p50} ms  p95 ${f.overheadMs.p95} ms  ` +
          `(floor ratio p50 ${f.ratioToFloor.p50}x)  agent p50 ${f.agentProcessMs.p50} ms (not overhead)  ` +
          `history ${f.historyEventsPerIteration} events/it (${ok(f.historyEventsPerIteration, TARGETS.historyEventsPerIteration)} <= 20)\n` +
          `             p50 parts: detection pass ${f.breakdownMs.detectionPass} ms, rest of the agent's activity ` +
          `${f.breakdownMs.activityOther} ms, workflow side ${f.breakdownMs.workflow} ms`
        );
      });
      process.stdout.write(
        [
          `ralphLoop orchestration overhead, ${n} iterations per layer in a small git repo, wall ${out.wallSeconds}s`,
          ...lines,
          layers.off
            ? `  bare loop (layer off)    p50 ${layers.off.overheadMs.p50} ms (${ok(layers.off.overheadMs.p50, 50)} < 50)   p95 ${layers.off.overheadMs.p95} ms (${ok(layers.off.overheadMs.p95, 100)} < 100)`
            : '',
          cost
            ? `  anti-laziness layer cost p50 +${cost.p50} ms (${ok(cost.p50, TARGETS.layerCostP50Ms)} <= ${TARGETS.layerCostP50Ms})   p95 +${cost.p95} ms`
            : '',
          `  no-op activity floor     p50 ${out.noopActivityRoundTripMs.p50} ms   p95 ${out.noopActivityRoundTripMs.p95} ms`,
          `  written to ${path.relative(process.cwd(), file)}`,
        ]
          .filter(Boolean)
          .join('\n') + '\n',
      );
      finishBench('loop', out.verdict);
    });
  } finally {
    await bench.teardown();
    for (const ws of workspaces) fs.rmSync(ws, { recursive: true, force: true });
  }
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** Each completed runAgent activity of a history: its run time and what its result says it spent where. */
function agentActivities(
  events: HistoryEvent[],
): { activityMs: number; agentMs: number; checkMs: number; detectionMs: number }[] {
  const ms = (e: HistoryEvent | undefined): number => {
    const t = e?.eventTime;
    return t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : 0;
  };
  const byId = new Map(events.map((e) => [String(e.eventId), e]));
  const out: { activityMs: number; agentMs: number; checkMs: number; detectionMs: number }[] = [];
  for (const e of events) {
    const done = e.activityTaskCompletedEventAttributes;
    if (!done) continue;
    const scheduled = byId.get(String(done.scheduledEventId));
    if (scheduled?.activityTaskScheduledEventAttributes?.activityType?.name !== 'runAgent') continue;
    const payload = done.result?.payloads?.[0]?.data;
    if (!payload) continue;
    const r = JSON.parse(Buffer.from(payload).toString('utf8')) as activities.RunAgentResult;
    out.push({
      activityMs: ms(e) - ms(byId.get(String(done.startedEventId))),
      agentMs: r.durationMs,
      checkMs: r.check?.durationMs ?? 0,
      detectionMs: r.inspected?.durationMs ?? 0,
    });
  }
  return out;
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:loop failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
