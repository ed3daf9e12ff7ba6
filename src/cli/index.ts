#!/usr/bin/env node
/**
 * `ralph`: the command-line interface. Global options say how to reach Temporal (flags win over TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, RALPH_TASK_QUEUE, TEMPORAL_API_KEY, TEMPORAL_TLS*, which win over defaults) and are accepted
 * before or after the command. Each command lives in ./commands/<verb>.ts and runs through ./run-command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { abortCommand } from './commands/abort';
import { checkpointsCommand } from './commands/checkpoints';
import { configCommand } from './commands/config';
import { auditCommand } from './commands/audit';
import { consoleCommand } from './commands/console';
import { watchCommand } from './commands/watch';
import { statsCommand } from './commands/stats';
import { approveCommand } from './commands/approve';
import { answerCommand } from './commands/answer';
import { blockedCommand } from './commands/blocked';
import { demoCommand } from './commands/demo';
import { flagCommand } from './commands/flag';
import { hookCommand } from './commands/hook';
import { devCommand } from './commands/dev';
import { doctorCommand } from './commands/doctor';
import { interventionsCommand } from './commands/interventions';
import { listCommand } from './commands/list';
import { moveCommand } from './commands/move';
import { pauseCommand } from './commands/pause';
import { profileCommand } from './commands/profile';
import { rejectCommand } from './commands/reject';
import { reportCommand } from './commands/report';
import { routeCommand } from './commands/route';
import { routingCommand } from './commands/routing';
import { resumeCommand } from './commands/resume';
import { retryBlockedCommand } from './commands/retry-blocked';
import { startCommand } from './commands/start';
import { statusCommand } from './commands/status';
import { unblockCommand } from './commands/unblock';
import { workerCommand } from './commands/worker';
import { packageRoot } from '../dev/dev-server';
import { reportError } from './run-command';

/** The package's version, from package.json (found upward from here: src/ under ts, dist/src/ built). */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(__dirname), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** Builds the `ralph` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('ralph')
    .description('Ralph loops for AI coding agents as durable Temporal workflows')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS; default localhost:7233)')
    .option('--namespace <name>', 'Temporal namespace (env TEMPORAL_NAMESPACE; default default)')
    .option('--task-queue <name>', 'task queue of the ralph workers (env RALPH_TASK_QUEUE; default ralph)')
    .option('--api-key <key>', 'Temporal Cloud API key, implies TLS (env TEMPORAL_API_KEY)')
    .option('--tls', 'connect with TLS (env TEMPORAL_TLS=true)')
    .option('--tls-cert-path <file>', 'client certificate for mTLS (env TEMPORAL_TLS_CLIENT_CERT_PATH)')
    .option('--tls-key-path <file>', 'client key for mTLS (env TEMPORAL_TLS_CLIENT_KEY_PATH)')
    .option('--tls-ca-path <file>', 'server CA certificate (env TEMPORAL_TLS_SERVER_CA_CERT_PATH)')
    .option('--tls-server-name <name>', 'server name to verify (env TEMPORAL_TLS_SERVER_NAME)')
    // Set before the commands are added: `program.command()` copies these settings into each subcommand.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ outputError: (text, write) => write(`ralph: ${text.replace(/^error: /, '')}`) });
  for (const register of [
    startCommand,
    statusCommand,
    flagCommand,
    listCommand,
    approveCommand,
    rejectCommand,
    abortCommand,
    answerCommand,
    pauseCommand,
    resumeCommand,
    blockedCommand,
    unblockCommand,
    retryBlockedCommand,
    workerCommand,
    moveCommand,
    devCommand,
    demoCommand,
    configCommand,
    statsCommand,
    hookCommand,
    interventionsCommand,
    profileCommand,
    reportCommand,
    checkpointsCommand,
    consoleCommand,
    auditCommand,
    watchCommand,
    routeCommand,
    routingCommand,
    doctorCommand,
  ])
    register(program);
  return program;
}

/** Parses argv and runs the command; sets `process.exitCode` (2 for usage errors found by commander). */
export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError || (e as Error).name === 'CommanderError') {
      const c = e as CommanderError;
      // --help and --version end with exit code 0; every other commander error is a usage error.
      process.exitCode = c.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = reportError(e);
  }
}

/**
 * A reader that goes away (`ralph list | head`) closes the pipe: stop quietly, as Unix tools do, instead of a stack
 * trace for the EPIPE of the next write.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
}

if (require.main === module) {
  exitQuietlyOnClosedPipe();
  void main();
}
