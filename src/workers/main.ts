#!/usr/bin/env node
/**
 * Worker process entry: connects to Temporal (flags/env read once here), registers the loop's search attributes when
 * allowed, runs the worker, and shuts down gracefully on SIGINT/SIGTERM (running agents are cancelled and their
 * process groups killed). `ralph worker` and the Docker image run this.
 */
import { Runtime } from '@temporalio/worker';
import { createLogger, setRootLogger, TemporalPinoLogger } from '../telemetry/logger';
import { type ConnectionConfig, connectionConfigFrom } from '../config/connection';
import { hostTaskQueue } from '../core/hosts';
import { connectWorker, createHostWorker, createWorker, ensureSearchAttributes } from './worker';

/** Options of {@link runWorker}. */
export interface RunWorkerOptions {
  connection: ConnectionConfig;
  maxConcurrentActivityTaskExecutions?: number;
  /** This worker's host id (`--host`, RALPH_HOST_ID): it also serves the host's own queue `<taskQueue>@<host>`. */
  hostId?: string;
  log?: (msg: string) => void;
  /** Resolve to stop the worker (default: SIGINT/SIGTERM). */
  until?: Promise<unknown>;
}

/** Runs a worker until `until` resolves or the process is signalled. */
export async function runWorker(o: RunWorkerOptions): Promise<void> {
  const log = o.log ?? ((m: string) => process.stderr.write(`ralph worker: ${m}\n`));
  const connection = await connectWorker(o.connection);
  await ensureSearchAttributes(connection, o.connection.namespace, log);
  const common = {
    connection,
    namespace: o.connection.namespace,
    taskQueue: o.connection.taskQueue,
    maxConcurrentActivityTaskExecutions: o.maxConcurrentActivityTaskExecutions,
    hostId: o.hostId,
  };
  const workers = [await createWorker(common)];
  if (o.hostId) workers.push(await createHostWorker({ ...common, hostId: o.hostId }));
  const stop = (): void => {
    log('shutting down: cancelling running agents');
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  if (!o.until) for (const s of signals) process.once(s, stop);
  else void o.until.then(stop);
  log(
    `connected to ${o.connection.address}, namespace ${o.connection.namespace}, task queue ${o.connection.taskQueue}` +
      (o.hostId ? ` and host queue ${hostTaskQueue(o.connection.taskQueue, o.hostId)}` : ''),
  );
  try {
    // One stops, both stop: a host must not keep serving its workspaces without the shared queue, or the reverse.
    await Promise.all(workers.map((w) => w.run().finally(stop)));
  } finally {
    for (const s of signals) process.removeListener(s, stop);
    await connection.close();
  }
}

if (require.main === module) {
  const logger = createLogger({ base: { component: 'worker' } });
  setRootLogger(logger);
  Runtime.install({ logger: new TemporalPinoLogger(logger) });
  runWorker({
    connection: connectionConfigFrom({}),
    hostId: process.env.RALPH_HOST_ID || undefined,
    log: (m) => logger.info({ event: 'worker' }, m),
  }).catch((e: unknown) => {
    process.stderr.write(`ralph worker: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
