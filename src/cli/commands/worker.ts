/**
 * `ralph worker [--max-concurrent-activities n] [--host id] [--metrics-port p]`: runs a worker for the ralph workflows
 * and activities against the configured server (flags > env > defaults), registering the loop's search attributes when
 * the server allows it. With `--host`, it also serves the host's own queue `<task-queue>@<id>` (multi-host). Logs are
 * JSON lines on stderr. With `--metrics-port`, `GET /metrics` on that port serves ralph's metrics followed by the SDK's
 * (its exporter listens on `--sdk-metrics-address`, default 127.0.0.1:<port+1>).
 * Ctrl-C (SIGINT/SIGTERM) cancels running agents, waits for the worker to stop, and exits.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { hostIdProblem } from '../../core/hosts';
import { runWorker } from '../../workers/main';
import type { AddressInfo } from 'node:net';
import { rootLogger } from '../../telemetry/logger';
import { serveMetrics } from '../../telemetry/metrics';
import { installWorkerRuntime, intOption, runCommand } from '../run-command';

/** Options of `ralph worker`. */
export const WorkerCommandOptions = z.object({
  maxConcurrentActivities: intOption().positive().max(10_000).optional(),
  host: z
    .string()
    .optional()
    .refine((h) => h === undefined || !hostIdProblem(h), {
      message: 'must be 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit',
    }),
  metricsPort: intOption().min(0).max(65_534).optional(),
  metricsHost: z.string().min(1).default('0.0.0.0'),
  sdkMetricsAddress: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'expected host:port, e.g. 127.0.0.1:9465')
    .optional(),
});

/** Registers `ralph worker` on the program. */
export function workerCommand(program: Command): Command {
  return program
    .command('worker')
    .description('run a worker that executes loops (agents and checks run on this machine)')
    .option('--max-concurrent-activities <n>', 'agent runs and checks executed at once (default 20)')
    .option(
      '--host <id>',
      "this host's id (env RALPH_HOST_ID): also serve the workspace activities of loops bound to it, on queue <task-queue>@<id>",
    )
    .option('--metrics-port <port>', "serve Prometheus metrics (ralph's and the Temporal SDK's) on GET /metrics")
    .option('--metrics-host <host>', 'address the metrics endpoint binds (default 0.0.0.0)')
    .option('--sdk-metrics-address <host:port>', "where the SDK's own exporter listens (default 127.0.0.1:<port+1>)")
    .action(
      runCommand(WorkerCommandOptions, async (o, _args, ctx) => {
        const sdkMetricsAddress =
          o.metricsPort === undefined ? undefined : (o.sdkMetricsAddress ?? `127.0.0.1:${o.metricsPort + 1}`);
        installWorkerRuntime('INFO', { sdkMetricsAddress });
        const log = rootLogger().child({ component: 'worker' });
        const server =
          o.metricsPort === undefined
            ? undefined
            : await serveMetrics({ port: o.metricsPort, host: o.metricsHost, sdkAddress: sdkMetricsAddress });
        if (server) {
          const a = server.address() as AddressInfo;
          log.info({ event: 'metrics.listening', port: a.port, sdkMetricsAddress }, `metrics on :${a.port}/metrics`);
        }
        try {
          await runWorker({
            connection: ctx.connection,
            maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities,
            hostId: o.host ?? (process.env.RALPH_HOST_ID || undefined),
            log: (m) => log.info({ event: 'worker' }, m),
          });
        } finally {
          server?.close();
        }
        log.info({ event: 'worker.stopped' }, 'stopped');
      }),
    );
}
