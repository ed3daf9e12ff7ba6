/**
 * `ralph dev [--port 7233] [--ui-port 8233] [--db .ralph/temporal.db]`: everything on one machine in one process: a
 * Temporal dev server persisting to SQLite, the loop's search attributes, and a worker. Ctrl-C stops the worker
 * (cancelling running agents), then the server.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { ConnectionConfig } from '../../config/connection';
import { DEFAULT_NAMESPACE, RALPH_DIR } from '../../core/constants';
import { startDevServer } from '../../dev/dev-server';
import { runWorker } from '../../workers/main';
import { installWorkerRuntime, intOption, runCommand, untilInterrupted } from '../run-command';

const Port = intOption().min(1).max(65_535);

/** Options of `ralph dev`. */
export const DevOptions = z.object({
  port: Port.default(7233),
  uiPort: Port.optional(),
  db: z.string().min(1).default(path.join(RALPH_DIR, 'temporal.db')),
});

/** Registers `ralph dev` on the program. */
export function devCommand(program: Command): Command {
  return program
    .command('dev')
    .description('run a local Temporal dev server (persistent) and a worker in this process')
    .option('--port <port>', 'frontend gRPC port (default 7233)')
    .option('--ui-port <port>', 'Web UI port (default: port + 1000)')
    .option('--db <file>', `SQLite file keeping loops across restarts (default ${path.join(RALPH_DIR, 'temporal.db')})`)
    .action(
      runCommand(DevOptions, async (o, _args, ctx) => {
        installWorkerRuntime('WARN');
        const interrupt = untilInterrupted(() =>
          ctx.out.note('ralph dev: still stopping (running agents get up to 10 s)...'),
        );
        const dbFile = path.resolve(o.db);
        try {
          const server = await startDevServer({
            dbFile,
            port: o.port,
            uiPort: o.uiPort ?? o.port + 1000,
            log: (m) => ctx.out.note(`ralph dev: ${m}`),
          });
          try {
            const taskQueue = ctx.connection.taskQueue;
            const addressFlag = o.port === 7233 ? '' : ` --address ${server.address}`;
            ctx.out.line(
              `ralph dev: Temporal dev server at ${server.address} (namespace ${DEFAULT_NAMESPACE}, data in ${path.relative(process.cwd(), dbFile) || dbFile})`,
            );
            ctx.out.line(`  Web UI      ${server.uiUrl}`);
            ctx.out.line(`  task queue  ${taskQueue} (a worker runs in this process)`);
            ctx.out.line(
              `  try         ralph start${addressFlag} --workspace . --prompt "Make the tests pass" --agent claude-code --check "npm test" --max-iterations 10 --follow`,
            );
            ctx.out.line('  Ctrl-C stops the worker, then the server.');
            await runWorker({
              connection: ConnectionConfig.parse({ address: server.address, namespace: DEFAULT_NAMESPACE, taskQueue }),
              until: interrupt.stopped,
              log: (m) => ctx.out.note(`ralph dev: worker ${m}`),
            });
          } finally {
            ctx.out.note('ralph dev: stopping the server');
            await server.stop();
          }
        } finally {
          interrupt.dispose();
        }
        ctx.out.note('ralph dev: stopped');
      }),
    );
}
