/**
 * The environment the loop benchmarks run in: a local Temporal dev server with the loop's search attributes, workers
 * on it, and a workspace with a scripted agent whose iteration records are read back afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { DEV_SERVER_DYNAMIC_CONFIG_ARGS } from '../src/core/constants';
import type { IterationRecord } from '../src/core/loop-types';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../src/workflows/search-attributes';

const { locateTemporal } = require('../../scripts/temporal-bin.js') as {
  locateTemporal: (o: object) => { path?: string };
};

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
    createWorker: (o) => Worker.create({ connection: env.nativeConnection, ...o }),
    teardown: () => env.teardown(),
  };
}

/**
 * Makes a temp workspace whose scripted agent (script.json) writes the file `done` at iteration `doneAt` and nothing
 * before it, and returns its path.
 */
export function scriptedWorkspace(prefix: string, doneAt: number): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(
    path.join(ws, 'script.json'),
    // Every iteration changes a file, as real agents do: an idle agent is (rightly) stopped by the stuck-loop detector.
    JSON.stringify({
      iterations: { [doneAt]: [{ write: 'done', content: 'x' }] },
      default: [{ append: 'work.log', content: 'x\n' }],
    }),
  );
  return ws;
}

/** Reads the record.json of every iteration of loop `loopId` in workspace `ws`. */
export function readIterationRecords(ws: string, loopId: string): IterationRecord[] {
  const dir = path.join(ws, '.ralph', 'loops', loopId, 'iterations');
  return fs
    .readdirSync(dir)
    .map((d) => JSON.parse(fs.readFileSync(path.join(dir, d, 'record.json'), 'utf8')) as IterationRecord);
}
