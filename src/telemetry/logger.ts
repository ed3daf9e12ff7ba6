/**
 * Structured JSON logs: one pino logger per process (worker, activities, CLI, console) writing one JSON object per
 * line with `loopId`, `iteration` and `event` when known, and an adapter that routes the Temporal SDK's logs (worker,
 * activity `Context.log`, and the workflows' replay-safe `log`) into the same sink. Every line is redacted before it is
 * written: registered secrets (agent env values) and API-key-looking strings become `[REDACTED]`.
 */
import pino, { type Logger as Pino } from 'pino';
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { redactText } from '../core/redact';
import { knownSecrets } from './secrets';

/** Levels as pino names them. */
export type RalphLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';

export { knownSecrets, registerSecrets } from './secrets';

const secrets = knownSecrets();

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  level?: RalphLogLevel;
  /** Where lines go (default: stderr, fd 2). */
  destination?: NodeJS.WritableStream | { write(s: string): unknown };
  /** Fields on every line, e.g. `{ component: 'worker' }`. */
  base?: Record<string, unknown>;
}

/** Creates a JSON logger whose every line is redacted. Level from `o.level`, else $RALPH_LOG_LEVEL, else `info`. */
export function createLogger(o: CreateLoggerOptions = {}): Pino {
  const level = o.level ?? (process.env.RALPH_LOG_LEVEL?.toLowerCase() as RalphLogLevel | undefined) ?? 'info';
  return pino(
    {
      level,
      base: { pid: process.pid, ...o.base },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      // Key-based redaction for structured fields, then text redaction of the whole line for everything else.
      redact: { paths: ['env', '*.env', 'agent.env', '*.agent.env', 'apiKey', '*.apiKey', 'token', '*.token'] },
      hooks: { streamWrite: (s) => redactText(s, secrets) },
    },
    (o.destination ?? pino.destination({ fd: 2, sync: true })) as pino.DestinationStream,
  );
}

let root: Pino | undefined;
/**
 * The process's logger. Until a command sets its own ({@link setRootLogger}: `ralph worker` and `ralph console` log at
 * info), it logs warnings and errors only (or at $RALPH_LOG_LEVEL), so short CLI commands and tests stay quiet.
 */
export function rootLogger(): Pino {
  root ??= createLogger({ level: (process.env.RALPH_LOG_LEVEL?.toLowerCase() as RalphLogLevel | undefined) ?? 'warn' });
  return root;
}

/** Replaces the process's logger (the worker and console commands set theirs at start). */
export function setRootLogger(l: Pino): void {
  root = l;
}

/** Fields of a log line about a loop: `loopId` from the SDK's `workflowId`, the iteration and event when given. */
function loopFields(meta: LogMetadata | undefined): Record<string, unknown> {
  if (!meta) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) if (typeof k === 'string') out[k] = v;
  if (typeof out.workflowId === 'string' && out.loopId === undefined) out.loopId = out.workflowId;
  return out;
}

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The Temporal SDK's Logger interface over pino: give it to `Runtime.install({ logger })` and the worker's, the
 * activities' (`Context.log`) and the workflows' (`log`, replay-safe: the SDK drops it while replaying) lines land in
 * the same JSON sink, with `loopId` set from the workflow id.
 */
export class TemporalPinoLogger implements TemporalLogger {
  constructor(private readonly pino: Pino = rootLogger()) {}

  /** Logs one SDK message at its level. */
  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    const fields = loopFields(meta);
    this.pino[LEVELS[level] ?? 'info']({ source: 'temporal', ...fields }, message);
  }
  /** Logs at TRACE. */
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  /** Logs at DEBUG. */
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  /** Logs at INFO. */
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  /** Logs at WARN. */
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  /** Logs at ERROR. */
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

/** Logs one loop event from an activity or command: `{ loopId, iteration, event, ...fields }`. */
export function logLoopEvent(
  event: string,
  f: { loopId: string; iteration?: number } & Record<string, unknown>,
  msg = event,
  level: 'debug' | 'info' | 'warn' | 'error' = 'info',
): void {
  rootLogger()[level]({ event, ...f }, msg);
}
