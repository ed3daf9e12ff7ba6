import type { Command } from 'commander';
import { startLoop, startProject } from '../../client';
import { logLoopEvent } from '../../telemetry/logger';
import { followLoop, followProject } from '../follow';
import { buildLoopInput, buildProjectInput, collect, StartOptions } from '../input/start-options';
import { runCommand, UsageError, useColor, type CommandContext } from '../run-command';
import { noteMissingWorker } from '../worker-hint';

/** Registers `ralph start` on the program. */
export function startCommand(program: Command): Command {
  return program
    .command('start')
    .description(
      'start a Ralph loop: an agent works on a task until a completion check passes or a human decides; ' +
        'with --prd, a project: every task of a PRD in turn',
    )
    .option('--prompt <text>', 'the task for the agent (with --prd: text put before every task)')
    .option('--prompt-file <file>', 'a file holding the task (re-read every iteration)')
    .option('--workspace <dir>', 'directory the agent works in (default: the current directory)')
    .option('--agent <adapter>', 'claude-code | codex | gemini | aider | command | scripted (default: claude-code)')
    .option('--agent-binary <path>', "executable to run instead of the adapter's default")
    .option('--model <name>', 'model passed to the agent CLI')
    .option(
      '--agent-arg <arg>',
      'extra argument for the agent (repeatable; use --agent-arg=--flag for dashes)',
      collect,
    )
    .option(
      '--command <argv...>',
      "the command adapter's argv; {prompt} and {promptFile} are replaced (one quoted string is split on spaces)",
    )
    .option('--script <file>', "the scripted agent's JSON script")
    .option(
      '--check <shell-command>',
      'completion check: the loop completes only when this exits 0 (with --prd, {taskId} is the task id)',
    )
    .option('--promise <text>', 'the agent claims completion by printing <promise>TEXT</promise>')
    .option(
      '--check-on <when>',
      'claim | every-iteration: when to run the check (default: every-iteration, or claim with --promise)',
    )
    .option('--max-iterations <n>', 'iterations before a human gate asks to approve, reject or abort (default 10)')
    .option('--max-questions <n>', 'questions the agent may ask a human per loop (default 3; 0: asking off)')
    .option('--iteration-timeout <secs>', 'time limit of one agent run (default 1800)')
    .option(
      '--heartbeat-timeout <secs>',
      'how soon a dead worker is noticed: agent, check, gate and verification activities heartbeat within this (default 60)',
    )
    .option('--continue-as-new-every <n>', 'continue-as-new after this many iterations (default 50)')
    .option('--no-anti-laziness', 'turn off snapshots, checkpoints, detectors, reinforcement and best-output selection')
    .option('--hook-policy <warn|deny>', 'answer to risky tool calls of hook-capable agents (default warn)')
    .option(
      '--best-output <worktree|branch|off>',
      'where a better earlier iteration is restored at loop end (default worktree)',
    )
    .option('--no-verification', "accept on the agent's checks alone (no re-run with the protected files restored)")
    .option('--protect <glob>', 'protect these files too (repeatable), e.g. --protect "golden/**"', collect)
    .option('--allow-edit <glob>', 'let the agent change these protected files (repeatable)', collect)
    .option(
      '--on-protected-edit <human|revert|allow>',
      'protected files changed but the original checks pass: ask a human (default), revert them, or allow',
    )
    .option(
      '--config <file>',
      'a LoopInput object (with --prd: a ProjectInput, e.g. timeouts) as .json or .yaml; flags override its fields',
    )
    .option('--prd <file>', 'start a project: work the tasks of this prd.json or Markdown checklist one by one')
    .option('--iterations-per-attempt <n>', 'with --prd: iterations of one attempt at a task (default 1)')
    .option('--auto-unblock', 'with --prd: unblock a blocked task once on its own, with the adaptive timeout')
    .option('--host <id>', "the host holding the workspace: its activities run on that host's workers (--host there)")
    .option('--host-wait <secs>', 'report the host as unreachable after an activity waited this long (default 300)')
    .option('--id <id>', 'the loop id (default: ralph-<task slug>-<hex>; with --prd: ralph-project-<prd slug>-<hex>)')
    .option(
      '--follow',
      'watch the loop until it ends; exit 0 if accepted, 1 otherwise (with --prd: until the project ends or ' +
        'waits for an operator; exit 0 only if every task is done)',
    )
    .option(
      '--json',
      'print {loopId} (with --follow: {loopId, result}; with --prd: {projectId[, result]}) as JSON; progress goes to stderr',
    )
    .action(runCommand(StartOptions, startLoopCommand));
}

/** `ralph start`: starts the loop, prints its id and, with --follow, follows it to its result. */
async function startLoopCommand(o: StartOptions, _args: string[], ctx: CommandContext): Promise<number | void> {
  if (o.prd !== undefined) return startProjectCommand(o, ctx);
  for (const [flag, set] of [
    ['--iterations-per-attempt', o.iterationsPerAttempt !== undefined],
    ['--auto-unblock', o.autoUnblock !== undefined],
  ] as const)
    if (set) throw new UsageError(`${flag} applies to projects only: add --prd <file>`);
  const input = buildLoopInput(o, process.cwd());
  const client = await ctx.client();
  const loopId = await startLoop(client, input, { taskQueue: ctx.connection.taskQueue, loopId: o.id });
  logLoopEvent('loop.started', { loopId, agent: input.agent?.adapter, taskQueue: ctx.connection.taskQueue });
  await noteMissingWorker(client, ctx.connection.taskQueue, ctx.connectionFlags, ctx.out);
  if (!o.follow) {
    if (o.json) ctx.out.json({ loopId });
    else ctx.out.line(loopId);
    return;
  }
  if (!o.json) ctx.out.line(loopId);
  const result = await followLoop(client, loopId, {
    print: o.json ? ctx.out.note : ctx.out.line,
    connectionFlags: ctx.connectionFlags,
    taskQueue: ctx.connection.taskQueue,
    color: useColor(undefined, o.json ? process.stderr : process.stdout),
  });
  if (o.json) ctx.out.json({ loopId, result });
  return result.status === 'accepted' ? 0 : 1;
}

/** `ralph start --prd`: starts the project, prints its id and, with --follow, follows it. */
async function startProjectCommand(o: StartOptions, ctx: CommandContext): Promise<number | void> {
  const input = buildProjectInput(o, process.cwd());
  const client = await ctx.client();
  const projectId = await startProject(client, input, { taskQueue: ctx.connection.taskQueue, projectId: o.id });
  logLoopEvent('project.started', { loopId: projectId, taskQueue: ctx.connection.taskQueue });
  await noteMissingWorker(client, ctx.connection.taskQueue, ctx.connectionFlags, ctx.out);
  if (!o.follow) {
    if (o.json) ctx.out.json({ projectId });
    else ctx.out.line(projectId);
    return;
  }
  if (!o.json) ctx.out.line(projectId);
  const result = await followProject(client, projectId, {
    print: o.json ? ctx.out.note : ctx.out.line,
    connectionFlags: ctx.connectionFlags,
    taskQueue: ctx.connection.taskQueue,
  });
  if (o.json) ctx.out.json({ projectId, result });
  return result.status === 'done' ? 0 : 1;
}
