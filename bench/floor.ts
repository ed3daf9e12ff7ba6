/**
 * npm run bench:floor — where the no-op activity round trip of the local dev server goes.
 *
 * Runs N (default 100) back-to-back no-op activities in one workflow three ways: a normal activity (eager dispatch
 * allowed, the SDK's default), a normal activity with eager dispatch off, and a local activity (one workflow task per
 * round trip, no activity dispatch). For the first two, each round trip is split along the history's event times:
 * activity scheduled → started (dispatch to the worker), started → completed (the activity), completed → workflow task
 * started (the server scheduling a workflow task and matching dispatching it), workflow task started → completed (the
 * worker's workflow code and the SDK), completed → next activity scheduled. Figures go to bench/results/floor.json.
 *
 * Env: BENCH_ITERATIONS (100), BENCH_DYNAMIC_CONFIG (extra `key=value` dev-server dynamic config, comma-separated),
 * BENCH_WORKER_OPTIONS (worker options to try, JSON), BENCH_RESULTS_DIR (where the JSON goes).
 */
import os from 'node:os';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { startBenchEnv } from './env';
import { percentile, writeResult } from './stats';

const EventType = temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const ms = (e: HistoryEvent): number => {
  const t = e.eventTime!;
  return Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
};

const summary = (v: number[]): { p50: number; p95: number; mean: number } => ({
  p50: percentile(v, 50),
  p95: percentile(v, 95),
  mean: v.length ? +(v.reduce((a, b) => a + b, 0) / v.length).toFixed(1) : NaN,
});

/** Splits each activity round trip of a history into its legs (ms, from the server's event times). */
export function legs(events: HistoryEvent[]): Record<string, { p50: number; p95: number; mean: number }> {
  const out: Record<string, number[]> = {
    scheduledToStarted: [],
    startedToCompleted: [],
    completedToWorkflowTaskStarted: [],
    workflowTaskStartedToCompleted: [],
    workflowTaskCompletedToNextScheduled: [],
  };
  const push = (k: string, v: number): void => {
    out[k].push(v);
  };
  const byId = new Map(events.map((e) => [Number(e.eventId), e]));
  for (const e of events) {
    if (e.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) continue;
    const a = e.activityTaskCompletedEventAttributes!;
    const sched = byId.get(Number(a.scheduledEventId))!;
    const started = byId.get(Number(a.startedEventId))!;
    push('scheduledToStarted', ms(started) - ms(sched));
    push('startedToCompleted', ms(e) - ms(started));
    const i = events.indexOf(e);
    const wftStarted = events.slice(i).find((x) => x.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    const wftDone = events.slice(i).find((x) => x.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    const next = events.slice(i).find((x) => x.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    if (wftStarted) push('completedToWorkflowTaskStarted', ms(wftStarted) - ms(e));
    if (wftStarted && wftDone) push('workflowTaskStartedToCompleted', ms(wftDone) - ms(wftStarted));
    if (wftDone && next) push('workflowTaskCompletedToNextScheduled', ms(next) - ms(wftDone));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, summary(v)]));
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_ITERATIONS ?? process.argv[2] ?? 100);
  const dynamic = (process.env.BENCH_DYNAMIC_CONFIG ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Worker options to try (JSON), e.g. {"workflowThreadPoolSize":2}.
  const workerOptions = JSON.parse(process.env.BENCH_WORKER_OPTIONS ?? '{}') as Record<string, unknown>;
  const bench = await startBenchEnv({ extraArgs: dynamic.flatMap((d) => ['--dynamic-config-value', d]) });
  const { env } = bench;
  const taskQueue = 'bench-floor';
  const worker = await bench.createWorker({
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities: { noop: async () => undefined },
    ...workerOptions,
  });
  try {
    const figures = await worker.runUntil(async () => {
      const run = async (workflow: string, count: number) => {
        const workflowId = `${workflow}-${Date.now()}`;
        const rt = (await env.client.workflow.execute(workflow, { taskQueue, workflowId, args: [count] })) as number[];
        const h = await env.client.workflow.getHandle(workflowId).fetchHistory();
        return { roundTripMs: summary(rt), legsMs: legs(h.events ?? []) };
      };
      await run('noopActivityLoop', 5); // warm-up: bundle load, first workflow task
      const eager = await run('noopActivityLoop', n);
      const noEager = await run('noopActivityLoopNoEager', n);
      const local = await run('noopLocalActivityLoop', n);
      return {
        iterations: n,
        dynamicConfig: dynamic,
        workerOptions,
        activity: eager,
        activityNoEager: noEager,
        localActivity: { roundTripMs: local.roundTripMs },
        machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => +l.toFixed(2)), node: process.version },
        temporal: bench.temporalBin ?? 'sdk-download',
        at: new Date().toISOString(),
      };
    });
    const file = writeResult('floor', figures);
    const line = (name: string, r: { roundTripMs: { p50: number; p95: number } }): string =>
      `  ${name.padEnd(34)} p50 ${r.roundTripMs.p50} ms  p95 ${r.roundTripMs.p95} ms`;
    const legLines = (r: typeof figures.activity): string[] =>
      Object.entries(r.legsMs).map(([k, v]) => `      ${k.padEnd(38)} p50 ${v.p50} ms  mean ${v.mean} ms`);
    process.stdout.write(
      [
        `no-op round trips on the dev server, ${n} each${dynamic.length ? ` (dynamic config ${dynamic.join(' ')})` : ''}`,
        line('activity (eager dispatch allowed)', figures.activity),
        ...legLines(figures.activity),
        line('activity (eager dispatch off)', figures.activityNoEager),
        ...legLines(figures.activityNoEager),
        line('local activity', figures.localActivity),
        `  written to ${path.relative(process.cwd(), file)}`,
      ].join('\n') + '\n',
    );
  } finally {
    await bench.teardown();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:floor failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
