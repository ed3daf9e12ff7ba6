/**
 * `ralph doctor [--json] [--agent <adapter>] [--workspace <dir>] [--state-dir <dir>]`: what this machine and the
 * configured Temporal server lack to run a loop, one line per check (ok / warn / FAIL / skip), each warn and failure
 * with the command that fixes it. Exits 1 when a check a loop needs failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Command } from 'commander';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { missingSearchAttributes, serverVersion, taskQueuePollers } from '../../client';
import { DEFAULT_TASK_QUEUE } from '../../core/constants';
import { hostTaskQueue } from '../../core/hosts';
import { agentCheck, diskCheck, doctorExitCode, doctorLines, nodeCheck, type DoctorCheck } from '../../core/doctor';
import { locateTemporalBinary } from '../../dev/dev-server';
import { findAgents, findSandbox } from '../../workers/machine';
import { runCommand, type CommandContext } from '../run-command';

/** Options of `ralph doctor`. */
export const DoctorOptions = z.object({
  json: z.boolean().default(false),
  agent: z.enum(['claude-code', 'codex', 'gemini', 'aider', 'command', 'scripted']).optional(),
  workspace: z.string().optional(),
  stateDir: z.string().optional(),
  host: z.string().min(1).optional(),
});
/** Options of `ralph doctor`. */
export type DoctorOptions = z.infer<typeof DoctorOptions>;

/** Registers `ralph doctor` on the program. */
export function doctorCommand(program: Command): Command {
  return program
    .command('doctor')
    .description(
      'check what a loop needs: node, temporal, the server, a worker, search attributes, git, agents, sandbox, disk',
    )
    .option('--agent <adapter>', 'the agent your loops run: its CLI missing is a failure (others only warn)')
    .option(
      '--workspace <dir>',
      'the workspace whose state folder (.ralph) needs disk space (default: current directory)',
    )
    .option('--state-dir <dir>', 'the state folder, when not <workspace>/.ralph')
    .option(
      '--host <id>',
      "also check the host's own queue <task-queue>@<id> (env RALPH_HOST_ID), for loops bound to it",
    )
    .option('--json', 'print the checks as JSON: {ok, checks: [{name, status, detail, fix, needed}]}')
    .action(runCommand(DoctorOptions, doctorRun));
}

async function doctorRun(o: DoctorOptions, _args: string[], ctx: CommandContext): Promise<number> {
  const checks: DoctorCheck[] = [nodeCheck(process.versions.node), temporalBinaryCheck()];
  checks.push(...(await temporalChecks(ctx, o.host ?? (process.env.RALPH_HOST_ID || undefined))));
  checks.push(gitCheck());
  for (const a of findAgents()) checks.push(agentCheck(a, a.setup.adapter === o.agent));
  checks.push(sandboxCheck());
  checks.push(diskSpaceCheck(o));
  const code = doctorExitCode(checks);
  if (o.json) ctx.out.json({ ok: code === 0, checks });
  else for (const l of doctorLines(checks)) ctx.out.line(l);
  return code;
}

function temporalBinaryCheck(): DoctorCheck {
  const t = locateTemporalBinary();
  if (t.path)
    return {
      name: 'temporal binary',
      status: 'ok',
      detail: `${t.path} (from ${t.source}${t.version ? `; ${t.version.split('\n')[0]}` : ''})`,
      needed: false,
    };
  return {
    name: 'temporal binary',
    status: 'warn',
    detail: `not found (${t.tried.join('; ')}); \`ralph dev\` falls back to the SDK's download (needs internet)`,
    fix: 'npm run temporal:ensure (in the ralph package), or set TEMPORAL_CLI_PATH to a `temporal` executable',
    needed: false,
  };
}

/** The connection flags to repeat in a suggested command, the task queue included when it is not the default. */
function flagsFor(ctx: CommandContext): string {
  const q = ctx.connection.taskQueue !== DEFAULT_TASK_QUEUE ? ` --task-queue ${ctx.connection.taskQueue}` : '';
  return `${ctx.connectionFlags ? ` ${ctx.connectionFlags}` : ''}${q}`;
}

/** Server, worker and search attributes: the last two are skipped when no server answers. */
async function temporalChecks(ctx: CommandContext, host?: string): Promise<DoctorCheck[]> {
  const { address, namespace, taskQueue } = ctx.connection;
  let client: Client;
  try {
    client = await ctx.client();
  } catch (e) {
    const why = ((e as Error).cause as Error | undefined)?.message?.split('\n')[0] ?? (e as Error).message;
    const skip = (name: string): DoctorCheck => ({ name, status: 'skip', detail: 'no server to ask', needed: true });
    return [
      {
        name: 'server',
        status: 'fail',
        detail: `nothing answers at ${address} (${why.slice(0, 160)})`,
        fix: `\`ralph dev\` starts a local server with a worker; or point at yours with --address / TEMPORAL_ADDRESS`,
        needed: true,
      },
      skip('worker'),
      ...(host ? [skip('host worker')] : []),
      skip('search attributes'),
    ];
  }
  const version = await serverVersion(client).catch(() => undefined);
  return [
    {
      name: 'server',
      status: 'ok',
      detail: `${address}, namespace ${namespace}${version ? ` (server ${version})` : ''}`,
      needed: true,
    },
    await workerCheck(client, taskQueue, flagsFor(ctx)),
    ...(host ? [await hostWorkerCheck(client, taskQueue, host, flagsFor(ctx))] : []),
    await searchAttributesCheck(client),
  ];
}

async function workerCheck(client: Client, taskQueue: string, flags: string): Promise<DoctorCheck> {
  const pollers = await taskQueuePollers(client, taskQueue);
  const byIdentity = new Map<string, { kinds: Set<string>; buildId?: string }>();
  for (const p of pollers) {
    const w = byIdentity.get(p.identity) ?? { kinds: new Set<string>(), buildId: p.buildId };
    w.kinds.add(p.kind);
    byIdentity.set(p.identity, w);
  }
  const workflows = pollers.some((p) => p.kind === 'workflow');
  const fix = `\`ralph worker${flags}\` (or \`ralph dev\` for a local server with a worker)`;
  if (!pollers.length || !workflows)
    return {
      name: 'worker',
      status: 'fail',
      detail: `no worker polls task queue ${taskQueue}${pollers.length ? ' for workflow tasks' : ''}`,
      fix,
      needed: true,
    };
  const workers = [...byIdentity].map(
    ([id, w]) => `${id} (${[...w.kinds].join('+')}; build ${w.buildId ?? 'unversioned'})`,
  );
  return { name: 'worker', status: 'ok', detail: `task queue ${taskQueue}: ${workers.join(', ')}`, needed: true };
}

/** The workers of a host's own queue (activities only): loops bound to the host wait without one. */
async function hostWorkerCheck(client: Client, taskQueue: string, host: string, flags: string): Promise<DoctorCheck> {
  const queue = hostTaskQueue(taskQueue, host);
  const pollers = (await taskQueuePollers(client, queue)).filter((p) => p.kind === 'activity');
  if (!pollers.length)
    return {
      name: 'host worker',
      status: 'fail',
      detail: `no worker polls ${queue}: loops bound to host ${host} wait for it`,
      fix: `on host ${host}: \`ralph worker --host ${host}${flags}\``,
      needed: true,
    };
  const ids = [...new Set(pollers.map((p) => p.identity))];
  return { name: 'host worker', status: 'ok', detail: `${queue}: ${ids.join(', ')}`, needed: true };
}

async function searchAttributesCheck(client: Client): Promise<DoctorCheck> {
  let missing: { name: string; type: string }[];
  try {
    missing = await missingSearchAttributes(client);
  } catch (e) {
    return {
      name: 'search attributes',
      status: 'warn',
      detail: `could not list them (${(e as Error).message.split('\n')[0].slice(0, 120)})`,
      fix: 'on Temporal Cloud, check the namespace settings for the Ralph* attributes (see `ralph doctor --json`)',
      needed: true,
    };
  }
  if (!missing.length)
    return {
      name: 'search attributes',
      status: 'ok',
      detail: 'RalphStatus, RalphIteration... registered',
      needed: true,
    };
  const ns = client.options.namespace;
  return {
    name: 'search attributes',
    status: 'fail',
    detail: `missing in namespace ${ns}: ${missing.map((m) => `${m.name}=${m.type}`).join(' ')}`,
    fix:
      '`ralph worker` registers them when it starts; or ' +
      missing
        .map((m) => `\`temporal operator search-attribute create --namespace ${ns} --name ${m.name} --type ${m.type}\``)
        .join('; '),
    needed: true,
  };
}

function gitCheck(): DoctorCheck {
  const r = spawnSync('git', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return { name: 'git', status: 'ok', detail: r.stdout.trim(), needed: false };
  return {
    name: 'git',
    status: 'warn',
    detail: 'git not found: checkpoints and diffs of git workspaces need it (plain folders work without)',
    fix: 'install git (`apt-get install -y git`, `brew install git`)',
    needed: false,
  };
}

function sandboxCheck(): DoctorCheck {
  const s = findSandbox();
  const tools = Object.entries(s.tools)
    .map(([name, p]) => `${name} ${p ? 'found' : 'missing'}`)
    .join(', ');
  const parts = `srt ${s.srt ? 'found' : 'missing'}, ${tools}`;
  if (s.status.state === 'enforced')
    return { name: 'sandbox', status: 'ok', detail: `starts (${parts}): agents run confined`, needed: false };
  const missing = Object.entries(s.tools).filter(([, p]) => !p);
  const pkg: Record<string, string> = { bwrap: 'bubblewrap', socat: 'socat', rg: 'ripgrep' };
  return {
    name: 'sandbox',
    status: 'warn',
    detail: `does not start (${s.status.reason ?? 'unknown reason'}; ${parts}): loops in sandbox mode auto run UNSANDBOXED, enforce fails`,
    fix: missing.length
      ? `apt-get install -y ${missing.map(([n]) => pkg[n] ?? n).join(' ')}`
      : (s.status.reason ?? 'see the reason above'),
    needed: false,
  };
}

/** Free space where the state folder is (or would be created: its nearest existing parent). */
function diskSpaceCheck(o: DoctorOptions): DoctorCheck {
  const folder = path.resolve(o.stateDir ?? path.join(o.workspace ?? process.cwd(), '.ralph'));
  let existing = folder;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const st = fs.statfsSync(existing);
  return diskCheck(folder, Number(st.bavail) * Number(st.bsize));
}
