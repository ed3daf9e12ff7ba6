#!/usr/bin/env node
/**
 * Worker process entry: connects to Temporal (flags/env read once here), registers the loop's search attributes when
 * allowed, runs the worker, and shuts down gracefully on SIGINT/SIGTERM (running agents are cancelled and their
 * process groups killed). `ralph worker` and the Docker image run this.
 */
import { Runtime } from '@temporalio/worker';
import { createLogger, setRootLogger, TemporalPinoLogger } from '../telemetry/logger';
import { type ConnectionConfig, connectionConfigFrom } from '../config/connection';
import { connectWorker, createWorker, ensureSearchAttributes } from './worker';

/** Options of {@link runWorker}. */
export interface RunWorkerOptions {
  connection: ConnectionConfig;
  maxConcurrentActivityTaskExecutions?: number;
  log?: (msg: string) => void;
  /** Resolve to stop the worker (default: SIGINT/SIGTERM). */
  until?: Promise<unknown>;
}

/** Runs a worker until `until` resolves or the process is signalled. */
export async function runWorker(o: RunWorkerOptions): Promise<void> {
  const log = o.log ?? ((m: string) => process.stderr.write(`ralph worker: ${m}\n`));
  const connection = await connectWorker(o.connection);
  await ensureSearchAttributes(connection, o.connection.namespace, log);
  const worker = await createWorker({
    connection,
    namespace: o.connection.namespace,
    taskQueue: o.connection.taskQueue,
    maxConcurrentActivityTaskExecutions: o.maxConcurrentActivityTaskExecutions,
  });
  const stop = (): void => {
    log('shutting down: cancelling running agents');
    worker.shutdown();
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  if (!o.until) for (const s of signals) process.once(s, stop);
  else void o.until.then(stop);
  log(
    `connected to ${o.connection.address}, namespace ${o.connection.namespace}, task queue ${o.connection.taskQueue}`,
  );
  try {
    await worker.run();
  } finally {
    for (const s of signals) process.removeListener(s, stop);
    await connection.close();
  }
}

if (require.main === module) {
  const logger = createLogger({ base: { component: 'worker' } });
  setRootLogger(logger);
  Runtime.install({ logger: new TemporalPinoLogger(logger) });
  runWorker({ connection: connectionConfigFrom({}), log: (m) => logger.info({ event: 'worker' }, m) }).catch(
    (e: unknown) => {
      process.stderr.write(`ralph worker: ${(e as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
