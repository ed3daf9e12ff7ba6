/**
 * `ralph console [--port p] [--host h] [--token t]`: serves the ops console (loops, human gates, projects) on
 * http://127.0.0.1:8642 by default, talking to Temporal with the same connection flags as every command. The token is
 * --token / RALPH_CONSOLE_TOKEN, else generated at first start (printed, kept in $RALPH_HOME/console-token). Logs are
 * JSON lines on stderr. Ctrl-C stops it.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { connectClient } from '../../client';
import { resolveConsoleToken } from '../../console/token';
import { startConsole } from '../../console/server';
import { createLogger, setRootLogger } from '../../telemetry/logger';
import { intOption, runCommand, untilInterrupted } from '../run-command';

/** The console's default port. */
export const DEFAULT_CONSOLE_PORT = 8642;

/** Options of `ralph console`. */
export const ConsoleCommandOptions = z.object({
  port: intOption().min(0).max(65_535).default(DEFAULT_CONSOLE_PORT),
  host: z.string().min(1).default('127.0.0.1'),
  token: z.string().optional(),
});

/** Registers `ralph console` on the program. */
export function consoleCommand(program: Command): Command {
  return program
    .command('console')
    .description('serve the ops console: loops waiting for you, gates with their evidence, one-click decisions')
    .option('--port <port>', `port to listen on (default ${DEFAULT_CONSOLE_PORT})`)
    .option('--host <address>', 'address to bind (default 127.0.0.1; any other needs --token or RALPH_CONSOLE_TOKEN)')
    .option('--token <token>', 'access token (env RALPH_CONSOLE_TOKEN; default: generated once and kept)')
    .action(
      runCommand(ConsoleCommandOptions, async (o, _args, ctx) => {
        const logger = createLogger({ base: { component: 'console' } });
        setRootLogger(logger);
        const t = resolveConsoleToken({ flag: o.token, host: o.host });
        const interrupt = untilInterrupted(() => ctx.out.note('ralph console: still stopping...'));
        try {
          const c = await startConsole({
            host: o.host,
            port: o.port,
            token: t.token,
            // Connected on first use and again after a failure: the console starts (read-only) without a server.
            client: () => connectClient(ctx.connection),
            logger,
          });
          ctx.out.line(
            `ralph console: ${c.url} (Temporal ${ctx.connection.address}, namespace ${ctx.connection.namespace})`,
          );
          if (t.source === 'generated' || t.source === 'file')
            ctx.out.line(`  token ${t.token} (${t.source === 'generated' ? 'generated, ' : ''}kept in ${t.file})`);
          else ctx.out.line(`  token from ${t.source === 'flag' ? '--token' : 'RALPH_CONSOLE_TOKEN'}`);
          ctx.out.line('  log in with the token in a browser, or send it as `Authorization: Bearer <token>`');
          await interrupt.stopped;
          await c.close();
        } finally {
          interrupt.dispose();
        }
        ctx.out.note('ralph console: stopped');
      }),
    );
}
