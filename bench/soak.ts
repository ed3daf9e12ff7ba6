/**
 * npm run soak — reliability soak: N loops (default 20) x K iterations (default 50: 1,000 in all) of a trivial shell
 * agent on git workspaces, while the worker process is killed with `kill -9` every 30-60 s and at a third and two
 * thirds of the progress whatever the time (restarted at once, and killed again only after it made progress: a soak
 * that finishes within 30 s still kills), and the dev server (persistent SQLite) is restarted twice. At the end every loop must be exact: accepted at iteration K,
 * records 1..K, each iteration's line written once (a killed run is rolled back to its pre-run checkpoint), a post-run
 * checkpoint ref per iteration, state.json equal to the workflow's state, every run's history bounded by
 * continue-as-new; and the worker's RSS after the soak is compared with its RSS after warm-up, and its trend over the
 * second half of what the last worker process did is reported (MB per 100 iterations: a leak climbs steadily).
 *
 * Sizes: SOAK_LOOPS, SOAK_ITERATIONS, SOAK_KILL_MIN_S / SOAK_KILL_MAX_S (kill interval), SOAK_KILL_AT (kills at shares
 * of the progress, default 0.33,0.66; `none` for the timer alone), SOAK_SERVER_RESTARTS (2), SOAK_AGENT_SLEEP_S (the agent sleeps this long before it
 * writes its line, default 0: a short soak slows its agent down so the kills land while loops are running),
 * SOAK_SEED. Results: bench/results/soak.json (or SOAK_RESULT_FILE). Exits non-zero, with the reasons, when anything
 * is not exact or a loop does not finish (never waits forever).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { LoopInputRaw } from '../src/config/loop-input';
import { DEV_SERVER_DYNAMIC_CONFIG_ARGS } from '../src/core/constants';
import type { LoopResult, LoopState } from '../src/core/loop-types';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../src/workflows/search-attributes';
import { percentile, regressionSlope, writeResult } from './stats';
import { finishBench } from './verdict';

const { locateTemporal } = require('../../scripts/temporal-bin.js') as {
  locateTemporal: (o: object) => { path?: string };
};

const num = (k: string, d: number): number => (process.env[k] ? Number(process.env[k]) : d);
const LOOPS = num('SOAK_LOOPS', 20);
const ITERATIONS = num('SOAK_ITERATIONS', 50);
const KILL_MIN_MS = num('SOAK_KILL_MIN_S', 30) * 1000;
const KILL_MAX_MS = num('SOAK_KILL_MAX_S', 60) * 1000;
/** Extra kills at these shares of the total iterations (e.g. `0.3,0.7`), whatever the timer says: a short soak still kills. */
const KILL_AT = (process.env.SOAK_KILL_AT ?? '0.33,0.66')
  .split(',')
  .filter(Boolean)
  .map(Number)
  .filter((x) => x > 0 && x < 1);
const SERVER_RESTARTS = num('SOAK_SERVER_RESTARTS', 2);
const DEADLINE_MS = num('SOAK_DEADLINE_S', 3600) * 1000;
const AGENT_SLEEP_S = num('SOAK_AGENT_SLEEP_S', 0);
const TASK_QUEUE = 'ralph-soak';
const WORKER_MAIN = path.resolve(__dirname, '../src/workers/main.js');

/** Deterministic pseudo-random numbers (mulberry32), so a soak's kill times can be replayed with SOAK_SEED. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Resident set size of a process, in MB (Linux /proc). */
function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** A git workspace whose agent appends its iteration number to iters.log; the check passes at K lines. */
function workspace(root: string, i: number): string {
  const ws = path.join(root, `ws-${String(i).padStart(2, '0')}`);
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, '.gitignore'), '.ralph/\n');
  fs.writeFileSync(path.join(ws, 'iters.log'), '');
  const g = (...a: string[]): string =>
    execFileSync('git', ['-c', 'user.name=soak', '-c', 'user.email=soak@localhost', ...a], { cwd: ws }).toString();
  g('init', '--quiet');
  g('add', '-A');
  g('commit', '--quiet', '-m', 'soak workspace');
  return ws;
}

function loopInput(ws: string): LoopInputRaw {
  return {
    prompt: `append the iteration number to iters.log until it has ${ITERATIONS} lines`,
    workspace: ws,
    agent: {
      adapter: 'command',
      command: [
        'sh',
        '-c',
        `${AGENT_SLEEP_S > 0 ? `sleep ${AGENT_SLEEP_S}; ` : ''}echo "$RALPH_ITERATION" >> iters.log`,
      ],
    },
    completion: {
      command: `test "$(wc -l < iters.log)" -ge ${ITERATIONS}`,
      checkOn: 'every-iteration',
    },
    maxIterations: ITERATIONS + 5,
    iterationTimeoutSeconds: 60,
    heartbeatTimeoutSeconds: 5,
    agentMaxAttempts: 20,
    continueAsNewEvery: 10,
  };
}

interface Problem {
  loopId: string;
  problem: string;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const temporalBin = locateTemporal({ install: true, quiet: true }).path;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ralph-soak-'));
  const dbFilename = path.join(dir, 'temporal.db');
  const port = await freePort();
  const server = async (): Promise<TestWorkflowEnvironment> =>
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: temporalBin ? { type: 'existing-path', path: temporalBin } : { type: 'cached-download' },
        searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
        extraArgs: DEV_SERVER_DYNAMIC_CONFIG_ARGS,
        dbFilename,
        port,
      },
    });
  let env = await server();
  const address = `127.0.0.1:${port}`;
  let worker: ChildProcess | undefined;
  const startWorker = (): void => {
    worker = spawn(process.execPath, [WORKER_MAIN], {
      env: { ...process.env, TEMPORAL_ADDRESS: address, RALPH_TASK_QUEUE: TASK_QUEUE, RALPH_LOG_LEVEL: 'ERROR' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  };
  const killWorker = async (): Promise<void> => {
    const w = worker;
    if (!w || w.exitCode !== null || w.signalCode !== null) return;
    const exited = new Promise((r) => w.once('exit', r));
    w.kill('SIGKILL');
    await exited;
  };

  const random = rng(num('SOAK_SEED', 1));
  const wsRoot = path.join(dir, 'workspaces');
  const loops = Array.from({ length: LOOPS }, (_, i) => ({ id: `soak-${i}-${Date.now()}`, ws: workspace(wsRoot, i) }));
  const t0 = Date.now();
  startWorker();
  for (const l of loops)
    await env.client.workflow.start('ralphLoop', { taskQueue: TASK_QUEUE, workflowId: l.id, args: [loopInput(l.ws)] });

  // Warm-up: the worker's RSS once every loop has run a few iterations.
  const done = (): number => loops.reduce((a, l) => a + Math.max(0, countLines(l.ws)), 0);
  while (done() < Math.min(LOOPS * 3, LOOPS * ITERATIONS) && Date.now() - t0 < DEADLINE_MS) await sleep(500);
  const rssWarm = rssMb(worker?.pid);

  let kills = 0;
  let restarts = 0;
  let crashes = 0;
  let doneAtStart = done();
  let nextKill = Date.now() + KILL_MIN_MS + random() * (KILL_MAX_MS - KILL_MIN_MS);
  const restartAt = Array.from(
    { length: SERVER_RESTARTS },
    (_, k) => ((k + 1) * LOOPS * ITERATIONS) / (SERVER_RESTARTS + 1),
  );
  const finished = new Set<string>();
  const results = new Map<string, LoopResult>();
  let rssEnd: number | undefined;
  /** The worker's RSS against the iterations done, per worker process: the growth figure is the last one's trend. */
  const rssSamples: { pid: number | undefined; done: number; rss: number }[] = [];
  const problems: Problem[] = [];
  let lastAsked = 0;
  while (finished.size < loops.length) {
    if (Date.now() - t0 > DEADLINE_MS) {
      problems.push({ loopId: '*', problem: `not finished after ${DEADLINE_MS / 1000} s` });
      // Say where each unfinished loop stands, so a hang can be told from a slow machine.
      for (const l of loops.filter((x) => !finished.has(x.id))) {
        const h = env.client.workflow.getHandle(l.id);
        const d = await h.describe().catch(() => undefined);
        const state = await h.query<LoopState>('status').catch(() => undefined);
        const pending = (d?.raw.pendingActivities ?? [])
          .map((a) => `${a.activityType?.name} attempt ${a.attempt} ${a.state}`)
          .join(', ');
        problems.push({
          loopId: l.id,
          problem: `still ${state?.phase ?? '?'} at iteration ${state?.iteration ?? '?'}; pending: ${pending || 'none'}`,
        });
      }
      break;
    }
    // Kill only a worker that has made progress since it started (a worker needs seconds to bundle and connect):
    // a soak must stress recovery, not keep the loops from ever moving.
    // A worker that died by itself (it lost the server while starting, say) is restarted, as a supervisor would.
    if (worker && (worker.exitCode !== null || worker.signalCode !== null)) {
      crashes++;
      startWorker();
      doneAtStart = done();
    }
    const progressKill = KILL_AT.length > 0 && done() >= KILL_AT[0] * LOOPS * ITERATIONS;
    if ((Date.now() >= nextKill || progressKill) && done() > doneAtStart) {
      if (progressKill) KILL_AT.shift();
      await killWorker();
      kills++;
      startWorker();
      doneAtStart = done();
      nextKill = Date.now() + KILL_MIN_MS + random() * (KILL_MAX_MS - KILL_MIN_MS);
    }
    if (restarts < restartAt.length && done() >= restartAt[restarts]) {
      // A server restart on the same database and port: the worker reconnects by itself.
      await env.teardown();
      env = await server();
      restarts++;
    }
    // Kills and restarts are decided every 200 ms (a short soak's loops move fast); the loops are asked once a second.
    await sleep(200);
    if (Date.now() - lastAsked < 1000) continue;
    lastAsked = Date.now();
    for (const l of loops) {
      if (finished.has(l.id)) continue;
      try {
        const d = await env.client.workflow.getHandle(l.id).describe();
        if (d.status.name === 'RUNNING') {
          // A soak never expects a human gate: say which one instead of waiting for it until the deadline.
          if (d.searchAttributes?.RalphAwaitingHuman?.[0] !== true) continue;
          const state = await env.client.workflow.getHandle(l.id).query<LoopState>('status');
          finished.add(l.id);
          problems.push({
            loopId: l.id,
            problem: `opened a human gate at iteration ${state.iteration}: ${state.pendingGate?.reason ?? '?'} (${state.pendingGate?.title ?? '?'})`,
          });
          continue;
        }
        finished.add(l.id);
        if (d.status.name === 'COMPLETED')
          results.set(l.id, (await env.client.workflow.getHandle(l.id).result()) as LoopResult);
        else problems.push({ loopId: l.id, problem: `workflow ${d.status.name}` });
      } catch {
        // The server may be restarting: ask again.
      }
    }
    const rss = rssMb(worker?.pid);
    if (rss !== undefined) rssSamples.push({ pid: worker?.pid, done: done(), rss });
    rssEnd = rss ?? rssEnd;
  }
  // RSS trend of the last worker process over the second half of what it did (MB per 100 iterations): a leak shows
  // as a steady climb; a heap settling after warm-up does not.
  const last = rssSamples.filter((r) => r.pid === rssSamples[rssSamples.length - 1]?.pid);
  const half = last.filter(
    (r) => r.done >= (last[0]?.done ?? 0) + ((last.at(-1)?.done ?? 0) - (last[0]?.done ?? 0)) / 2,
  );
  const slope = regressionSlope(half.map((r) => [r.done, r.rss]));
  const wallS = (Date.now() - t0) / 1000;

  // Exactness, loop by loop.
  let maxEventsPerRun = 0;
  const runsPerLoop: number[] = [];
  for (const l of loops) {
    const r = results.get(l.id);
    if (!r) continue;
    const fail = (problem: string): void => void problems.push({ loopId: l.id, problem });
    if (r.status !== 'accepted' || r.iterations !== ITERATIONS)
      fail(`ended ${r.status} at iteration ${r.iterations} (${r.reason})`);
    const lines = fs.readFileSync(path.join(l.ws, 'iters.log'), 'utf8').trim().split('\n');
    const want = Array.from({ length: ITERATIONS }, (_, i) => String(i + 1));
    if (lines.join(',') !== want.join(',')) fail(`iters.log is ${lines.join(',')}, not 1..${ITERATIONS} once each`);
    const state = JSON.parse(
      fs.readFileSync(path.join(l.ws, '.ralph', 'loops', l.id, 'state.json'), 'utf8'),
    ) as LoopState;
    if (state.totals.iterations !== ITERATIONS || state.iteration !== ITERATIONS)
      fail(`state.json counts ${state.totals.iterations} iterations`);
    const ns = state.records.map((x) => x.n);
    const tail = want.slice(-ns.length).map(Number);
    if (ns.join(',') !== tail.join(',')) fail(`records are ${ns.join(',')}`);
    for (let n = 1; n <= ITERATIONS; n++) {
      const rec = path.join(l.ws, '.ralph', 'loops', l.id, 'iterations', String(n).padStart(3, '0'), 'record.json');
      if (!fs.existsSync(rec)) fail(`iteration ${n} has no record.json`);
    }
    const refs = execFileSync('git', ['for-each-ref', '--format=%(refname)', `refs/ralph/${l.id}/`], { cwd: l.ws })
      .toString()
      .split('\n')
      .filter((x) => /iter-\d{3}-post$/.test(x));
    if (refs.length !== ITERATIONS) fail(`${refs.length} post-run checkpoints, not ${ITERATIONS}`);
    // Every run of the workflow (continue-as-new) has a bounded history.
    let runs = 0;
    for await (const w of env.client.workflow.list({ query: `WorkflowId = '${l.id}'` })) {
      runs++;
      const h = await env.client.workflow.getHandle(l.id, w.runId).fetchHistory();
      maxEventsPerRun = Math.max(maxEventsPerRun, h.events?.length ?? 0);
    }
    runsPerLoop.push(runs);
  }
  await killWorker();
  await env.teardown();

  const out = {
    loops: LOOPS,
    iterationsPerLoop: ITERATIONS,
    iterations: LOOPS * ITERATIONS,
    wallSeconds: Math.round(wallS),
    iterationsPerSecond: +((LOOPS * ITERATIONS) / wallS).toFixed(2),
    workerKills: kills,
    workerCrashes: crashes,
    serverRestarts: restarts,
    maxHistoryEventsPerRun: maxEventsPerRun,
    runsPerLoop: { p50: percentile(runsPerLoop, 50), max: Math.max(0, ...runsPerLoop) },
    workerRssMb: { afterWarmup: rssWarm, afterSoak: rssEnd },
    rssGrowthPct: rssWarm && rssEnd ? +(((rssEnd - rssWarm) / rssWarm) * 100).toFixed(1) : undefined,
    rssSlopeMbPer100Iterations: Number.isFinite(slope) ? +(slope * 100).toFixed(1) : undefined,
    rssLastWorker: {
      iterations: (last.at(-1)?.done ?? 0) - (last[0]?.done ?? 0),
      peakMb: last.length ? Math.max(...last.map((r) => r.rss)) : undefined,
    },
    exact: problems.length === 0,
    problems: problems.slice(0, 50),
  };
  const file = process.env.SOAK_RESULT_FILE ?? writeResult('soak', out);
  if (process.env.SOAK_RESULT_FILE) fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(
    `soak: ${out.iterations} iterations (${LOOPS} loops x ${ITERATIONS}) in ${out.wallSeconds} s, ` +
      `${kills} worker kill -9, ${crashes} worker exits restarted, ${restarts} server restarts, ${done()} lines written; ` +
      `${out.exact ? 'EXACT' : 'NOT EXACT'}`,
  );
  console.log(
    `  history events per run max ${maxEventsPerRun} (continue-as-new every 10); ` +
      `worker RSS ${rssWarm} MB after warm-up, ${rssEnd} MB after the soak (${out.rssGrowthPct}%); ` +
      `last worker: ${out.rssLastWorker.iterations} iterations, peak ${out.rssLastWorker.peakMb} MB, ` +
      `trend over its second half ${out.rssSlopeMbPer100Iterations ?? '?'} MB per 100 iterations`,
  );
  for (const p of problems.slice(0, 20)) console.log(`  PROBLEM ${p.loopId}: ${p.problem}`);
  console.log(`  written to ${file}`);
  fs.rmSync(dir, { recursive: true, force: true });
  finishBench('soak', { exact: problems.length === 0 });
}

function countLines(ws: string): number {
  try {
    return fs.readFileSync(path.join(ws, 'iters.log'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

main().catch((e: unknown) => {
  console.error(`soak failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
