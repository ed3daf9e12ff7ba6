/**
 * The one wrapper every CLI command runs through: it parses the command's options with zod, builds the connection
 * settings (flags > env > defaults) once, hands the command a lazily connected client, and turns known errors into
 * one line `ralph: <message>` on stderr with an exit code (2: usage or invalid input, 1: other known errors).
 * Unknown errors print their stack and exit 1. Commands throw; they never call process.exit.
 */
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { z } from 'zod';
import { connectClient } from '../client';
import { type ConnectionConfig, connectionConfigFrom } from '../config/connection';
import { UsageError, CommandFailedError } from './errors';

/** Options every command inherits from the `ralph` program: how to reach Temporal. */
export const GlobalOptions = z.object({
  address: z.string().optional(),
  namespace: z.string().optional(),
  taskQueue: z.string().optional(),
  apiKey: z.string().optional(),
  tls: z.boolean().optional(),
  tlsCertPath: z.string().optional(),
  tlsKeyPath: z.string().optional(),
  tlsCaPath: z.string().optional(),
  tlsServerName: z.string().optional(),
});
/** Options every command inherits from the `ralph` program. */
export type GlobalOptions = z.infer<typeof GlobalOptions>;

/** Where a command writes: stdout for results, stderr for progress and notes. */
export interface Output {
  /** Writes one line to stdout. */
  line(text?: string): void;
  /** Writes a value as pretty JSON to stdout. */
  json(value: unknown): void;
  /** Writes one line to stderr (progress, notes). */
  note(text: string): void;
}

/** Whether to colour the output: the flag when given, else a terminal without NO_COLOR (https://no-color.org). */
export function useColor(flag: boolean | undefined, stream: { isTTY?: boolean }, env = process.env): boolean {
  if (flag !== undefined) return flag;
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** The standard output: process.stdout and process.stderr. */
export const stdOutput: Output = {
  line: (text = '') => void process.stdout.write(text + '\n'),
  json: (value) => void process.stdout.write(JSON.stringify(value, null, 2) + '\n'),
  note: (text) => void process.stderr.write(text + '\n'),
};

/** What a command gets from the wrapper besides its own options. */
export interface CommandContext {
  /** Connection settings, read once: flags win over env (TEMPORAL_ADDRESS, ...), env over defaults. */
  connection: ConnectionConfig;
  /** Connection flags the user typed, to repeat in the commands we suggest (`ralph approve <id> --address ...`). */
  connectionFlags: string;
  /** A client connected on first use and closed when the command ends. */
  client(): Promise<Client>;
  out: Output;
}

/** What a command handler returns: nothing (exit 0) or an exit code. */
export type CommandHandler<O> = (opts: O, args: string[], ctx: CommandContext) => Promise<number | void>;

/**
 * Wraps a command handler as a commander action: parses the command's own options with `schema` and the inherited
 * connection options, runs the handler, reports errors as one line and sets `process.exitCode`.
 */
export function runCommand<S extends z.ZodType>(
  schema: S,
  handler: CommandHandler<z.output<S>>,
): (...actionArgs: unknown[]) => Promise<void> {
  return async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const args = actionArgs
      .slice(0, -2)
      .flatMap((a) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
    let client: Client | undefined;
    try {
      const opts = schema.parse(command.opts());
      const globals = GlobalOptions.parse(command.optsWithGlobals());
      const connection = connectionConfigFrom(globals);
      const ctx: CommandContext = {
        connection,
        connectionFlags: connectionFlags(globals),
        client: async () => (client ??= await connectClient(connection)),
        out: stdOutput,
      };
      const code = await handler(opts, args, ctx);
      if (typeof code === 'number' && code !== 0) process.exitCode = code;
    } catch (e) {
      process.exitCode = reportError(e, stdOutput);
    } finally {
      await client?.connection.close().catch(() => undefined);
    }
  };
}

/** Error names (compared by name: `instanceof` breaks across module registries) and the exit code each maps to. */
const KNOWN_ERRORS: Record<string, number> = {
  UsageError: 2,
  InvalidInputError: 2,
  NoServerError: 1,
  LoopNotFoundError: 1,
  LoopFinishedError: 1,
  DevServerError: 1,
  CommandFailedError: 1,
  SignalIgnoredError: 1,
  ConfigError: 2,
  ProjectNotFoundError: 1,
  NotAProjectError: 1,
  ProjectFinishedError: 1,
  ProjectFailedError: 1,
  UpdateRejectedError: 1,
  ConsoleConfigError: 2,
  SecretsKeyMismatchError: 1,
};

/** Prints an error as `ralph: <message>` (known errors) or with its stack (unknown ones); returns the exit code. */
export function reportError(e: unknown, out: Output = stdOutput): number {
  const err = e as Error & { code?: string; path?: string; workflowId?: string };
  const name = err?.name ?? '';
  if (name === 'ZodError' && Array.isArray((e as z.ZodError).issues)) {
    out.note(`ralph: ${formatOptionIssues(e as z.ZodError)}`);
    return 2;
  }
  if (name in KNOWN_ERRORS) {
    out.note(`ralph: ${err.message}`);
    return KNOWN_ERRORS[name];
  }
  if (name === 'WorkflowExecutionAlreadyStartedError') {
    out.note(`ralph: a loop with id "${err.workflowId}" already exists: choose another --id or omit it`);
    return 1;
  }
  if (err?.code === 'ENOENT' && err.path) {
    out.note(`ralph: file not found: ${err.path}`);
    return 2;
  }
  out.note(`ralph: unexpected error: ${err?.stack ?? String(e)}`);
  return 1;
}

/** Formats zod issues of command-line options, naming each option as the user types it (`--max-iterations`). */
export function formatOptionIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const key = i.path[0];
      const flag = typeof key === 'string' ? `--${kebab(key)}` : 'options';
      return `${flag}: ${i.message}`;
    })
    .join('; ');
}

const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function connectionFlags(g: GlobalOptions): string {
  const parts: string[] = [];
  if (g.address) parts.push(`--address ${g.address}`);
  if (g.namespace) parts.push(`--namespace ${g.namespace}`);
  return parts.join(' ');
}

/** A number option as commander hands it over (a string), coerced and checked to be an integer. */
export const intOption = () => z.coerce.number().int();

/** Renders rows as a left-aligned text table with a header line. */
export function table(header: string[], rows: (string | number | undefined)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map((c) => (c === undefined ? '' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** A duration in ms as `1.2s` / `3m04s` / `1h02m`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Installs the Temporal runtime for commands that run a worker: the SDK's logs (worker, activities, and the workflows'
 * replay-safe `log`) go to the process's JSON logger (pino, redacted) at `level` (or $RALPH_LOG_LEVEL), and, when
 * `sdkMetricsAddress` is set, the SDK's Prometheus exporter listens there. No signal handlers of its own, so the
 * command decides the shutdown order (worker first, then the server).
 */
export function installWorkerRuntime(
  level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' = 'WARN',
  o: { sdkMetricsAddress?: string } = {},
): void {
  // Loaded here, not at the top: the native bridge is only needed by the commands that run a worker.
  const { Runtime } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  const { createLogger, setRootLogger, TemporalPinoLogger } =
    require('../telemetry/logger') as typeof import('../telemetry/logger');
  const wanted = (process.env.RALPH_LOG_LEVEL?.toUpperCase() as typeof level | undefined) ?? level;
  const logger = createLogger({ level: wanted.toLowerCase() as Lowercase<typeof level> });
  setRootLogger(logger);
  Runtime.install({
    logger: new TemporalPinoLogger(logger),
    shutdownSignals: [],
    ...(o.sdkMetricsAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: o.sdkMetricsAddress } } } }
      : {}),
  });
}

/**
 * Resolves on the first SIGINT/SIGTERM; later ones only print `note` (the stop already under way is bounded by the
 * worker's shutdown grace time and the server's SIGKILL timer). Call `dispose` once stopped.
 */
export function untilInterrupted(onRepeat: () => void): { stopped: Promise<NodeJS.Signals>; dispose(): void } {
  let first: ((s: NodeJS.Signals) => void) | undefined;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (first = resolve));
  let seen = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (seen) return onRepeat();
    seen = true;
    first?.(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopped,
    dispose: () => {
      process.removeListener('SIGINT', handler);
      process.removeListener('SIGTERM', handler);
    },
  };
}
export { UsageError, CommandFailedError };
