/**
 * `ralph status <id>`: where a loop stands (status, phase, iteration, agent, workspace), its pending human gate with
 * the commands that answer it, running totals, the last iterations and signals, and the result once it ended.
 * `--json` prints the full LoopState. `--persistence`, `--regressions` and `--quality` print the anti-laziness views
 * instead (with `--json`: the object behind each view). For a project (`ralph start --prd`): its task table, with
 * `--json` the full ProjectState.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { describeWorkflow, getLoopStatus, getProjectTasks } from '../../client';
import { WorkflowTypes } from '../../core/constants';
import { describeBinding } from '../../core/hosts';
import type { LoopState } from '../../core/loop-types';
import type { ProjectState } from '../../core/project-machine';
import { routingStatusLines } from '../../core/routing/tracker';
import { persistenceSummary, qualityBars, regressionsView, trajectoryOf } from '../../core/report';
import { formatDuration, runCommand, table, UsageError } from '../run-command';
import { gateLines, shellQuote } from '../signal-helpers';
import { clip } from './blocked';
import { checkText, positionLine, resultLine } from './start';

/** Options of `ralph status`. */
export const StatusOptions = z.object({
  json: z.boolean().default(false),
  persistence: z.boolean().default(false),
  regressions: z.boolean().default(false),
  quality: z.boolean().default(false),
});
/** Options of `ralph status`. */
export type StatusOptions = z.infer<typeof StatusOptions>;

/** How many iteration records and signals the human view shows. */
const RECORDS_SHOWN = 10;
const SIGNALS_SHOWN = 5;

/** Registers `ralph status` on the program. */
export function statusCommand(program: Command): Command {
  return program
    .command('status <id>')
    .description("show a loop's state: gate, totals, last iterations and signals, result; or a project's task table")
    .option('--json', "print the full LoopState (a project: ProjectState) as JSON (with a view flag: that view's data)")
    .option('--persistence', 'show the anti-laziness metrics: baseline/current, regressions, level, recovery, best')
    .option('--regressions', 'show the regression events with their recovery and rollback')
    .option('--quality', 'show the quality trajectory as bars, with the best iteration')
    .action(
      runCommand(StatusOptions, async (o, [loopId], ctx) => {
        const client = await ctx.client();
        const kind = await describeWorkflow(client, loopId);
        if (kind.type === WorkflowTypes.ralphProject) {
          if (o.persistence || o.regressions || o.quality)
            throw new UsageError(
              `--persistence, --regressions and --quality show a loop: "${loopId}" is a project; ` +
                `its attempts are loops (ids in \`ralph status ${loopId} --json\`, tasks[].attempts[].loopId)`,
            );
          const project = await getProjectTasks(client, loopId);
          if (o.json) ctx.out.json(project);
          else for (const l of projectStatusLines(project, kind.status)) ctx.out.line(l);
          return;
        }
        const state = await getLoopStatus(client, loopId);
        const views = persistenceViews(state, o);
        if (views) {
          if (o.json) ctx.out.json(views.json);
          else for (const l of views.lines) ctx.out.line(l);
          return;
        }
        const d = await client.workflow.getHandle(loopId).describe();
        if (o.json) {
          ctx.out.json(state);
          return;
        }
        let failure: string | undefined;
        if (d.status.name !== 'RUNNING' && !state.result)
          failure = await client.workflow
            .getHandle(loopId)
            .result()
            .then(
              () => undefined,
              (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
            );
        for (const l of statusLines(state, ctx.connectionFlags, d.status.name, failure)) ctx.out.line(l);
      }),
    );
}

/** The human view of a loop's state, as lines. */
export function statusLines(
  s: LoopState,
  connectionFlags = '',
  workflowStatus = 'RUNNING',
  failure?: string,
): string[] {
  const t = s.totals;
  const out: string[] = [`loop ${s.loopId}`];
  const field = (k: string, v: string | undefined): void => {
    if (v) out.push(`  ${k.padEnd(10)} ${v}`);
  };
  // A workflow can end without the loop recording a result (invalid input found by the worker, terminated).
  const endedEarly = workflowStatus !== 'RUNNING' && !s.result;
  field(
    'status',
    endedEarly
      ? `${workflowStatus.toLowerCase()} (before the loop recorded a result)`
      : `${s.status}${s.paused && s.status !== 'paused' ? ' (pause requested)' : ''}`,
  );
  if (s.maxIterations && !endedEarly) field('position', positionLine(s));
  if (workflowStatus !== 'RUNNING') field('workflow', workflowStatus.toLowerCase());
  field('agent', s.agent);
  field('workspace', s.workspace);
  field('state', s.stateDir ? `${s.stateDir}/loops/${s.loopId}/state.json` : s.result?.stateFile);
  field('started', s.startedAt && `${s.startedAt} (updated ${s.updatedAt}${s.run ? `, run ${s.run + 1}` : ''})`);
  field('sleeping', s.sleepingUntil && `until ${s.sleepingUntil} (usage limit)`);
  field('host', describeBinding(s.host));
  const labels = Object.entries(s.labels ?? {});
  field('labels', labels.map(([k, v]) => `${k}=${v}`).join(' '));
  if (failure) field('failure', failure);
  if (s.routing) out.push('', ...routingStatusLines(s.routing));

  if (s.pendingGate) out.push('', ...gateLines(s.loopId, s.pendingGate, connectionFlags));
  if (s.pendingGuidance) out.push('', `guidance for the next prompt: ${s.pendingGuidance}`);

  if (t && t.iterations !== undefined) {
    const tokens = t.inputTokens || t.outputTokens ? `${t.inputTokens} in / ${t.outputTokens} out` : '0';
    out.push(
      '',
      `totals: ${t.iterations} iteration${t.iterations === 1 ? '' : 's'} · checks ${t.checksPassed} passed / ${t.checksFailed} failed · ` +
        `${t.agentFailures} agent failures · ${t.usageLimitWaits} usage-limit waits · ${t.humanGates} human gates · ` +
        `tokens ${tokens} · cost $${t.costUsd.toFixed(2)}`,
    );
  }

  const records = s.records.slice(-RECORDS_SHOWN);
  if (records.length) {
    out.push('', `last ${records.length} iteration${records.length === 1 ? '' : 's'}:`);
    const rows = records.map((r) => [
      r.n,
      r.outcome,
      r.agent.failure ? `failed: ${r.agent.failure.slice(0, 40)}` : (r.agent.exitCode ?? '-'),
      checkText(r),
      formatDuration(r.durationMs),
    ]);
    out.push(...table(['n', 'outcome', 'agent exit', 'check', 'duration'], rows).map((l) => `  ${l}`));
  }

  const signals = s.signals.slice(-SIGNALS_SHOWN);
  if (signals.length) {
    out.push('', 'last signals:');
    for (const e of signals)
      out.push(
        `  ${e.at} ${e.name}${e.by ? ` by ${e.by}` : ''}: ${e.applied ? 'applied' : 'ignored'} (${e.note})${e.reason ? ` reason: ${e.reason}` : ''}`,
      );
  }

  if (s.result) out.push('', `result: ${resultLine(s.result)}`, `  state file: ${s.result.stateFile}`);
  return out;
}

/**
 * The views `--persistence`, `--regressions` and `--quality` select, in that order, as lines and as JSON (one flag:
 * that view's object; several: an object keyed by flag). `undefined` when no view flag is set.
 */
export function persistenceViews(
  s: LoopState,
  o: Pick<StatusOptions, 'persistence' | 'regressions' | 'quality'>,
): { lines: string[]; json: unknown } | undefined {
  const parts: { key: string; lines: string[]; json: unknown }[] = [];
  if (o.persistence) parts.push({ key: 'persistence', lines: persistenceSummary(s), json: s.persistence ?? null });
  if (o.regressions)
    parts.push({ key: 'regressions', lines: regressionsView(s), json: s.persistence?.regressions ?? [] });
  if (o.quality) {
    const trajectory = trajectoryOf(s);
    const best = s.persistence?.best;
    const lines = ['Quality Trajectory:'];
    if (!trajectory.length) lines.push('  no quality measurements yet (quality gates have not run)');
    else lines.push(...qualityBars(trajectory, best).map((l) => `  ${l}`));
    if (best) lines.push(`  best: ${best.reason}${best.restoredTo ? ` (restored to ${best.restoredTo})` : ''}`);
    parts.push({ key: 'quality', lines, json: { trajectory, best: best ?? null } });
  }
  if (!parts.length) return undefined;
  return {
    lines: parts.flatMap((p, i) => (i ? ['', ...p.lines] : p.lines)),
    json: parts.length === 1 ? parts[0].json : Object.fromEntries(parts.map((p) => [p.key, p.json])),
  };
}

/** The human view of a project: where it stands, then its task table. */
export function projectStatusLines(s: ProjectState, workflowStatus = 'RUNNING'): string[] {
  const out: string[] = [`project ${s.projectId}`];
  const field = (k: string, v: string | undefined): void => {
    if (v) out.push(`  ${k.padEnd(10)} ${v}`);
  };
  const current = s.current ? s.tasks.find((t) => t.id === s.current) : undefined;
  field(
    'status',
    s.status.replace(/_/g, ' ') +
      (current ? ` (task ${current.id}, attempt ${current.attempts.length})` : '') +
      (s.status === 'waiting_operator' ? ': only blocked tasks are left' : ''),
  );
  if (workflowStatus !== 'RUNNING') field('workflow', workflowStatus.toLowerCase());
  field('prd', s.prdFile);
  const count = (st: string): number => s.tasks.filter((t) => t.status === st).length;
  field(
    'tasks',
    `${s.tasks.length}: ${count('done')} done, ${count('running')} running, ${count('pending')} pending, ` +
      `${count('blocked')} blocked · ${s.attemptsRun} attempt${s.attemptsRun === 1 ? '' : 's'}`,
  );
  field('started', s.startedAt && `${s.startedAt} (updated ${s.updatedAt}${s.run ? `, run ${s.run + 1}` : ''})`);
  out.push('');
  const rows = s.tasks.map((t) => {
    const last = t.attempts[t.attempts.length - 1];
    return [
      t.id,
      clip(t.title, 40),
      t.complexity,
      t.status,
      t.attempts.length,
      last?.outcome ?? (last ? 'running' : '-'),
      last ? `${last.timeoutSeconds} s` : '-',
      t.blockReason ?? '',
    ];
  });
  out.push(
    ...table(
      ['id', 'title', 'complexity', 'status', 'attempts', 'last outcome', 'last timeout', 'block reason'],
      rows,
    ).map((l) => `  ${l}`),
  );
  const blocked = count('blocked');
  if (blocked)
    out.push(
      '',
      `${blocked} blocked: see why and what to run with \`ralph blocked ${shellQuote(s.projectId)} --suggest\``,
    );
  const commands = s.commands.slice(-SIGNALS_SHOWN);
  if (commands.length) {
    out.push('', 'last operator commands:');
    for (const c of commands)
      out.push(`  ${c.at} ${c.name}${c.by ? ` by ${c.by}` : ''}: ${c.applied ? 'applied' : 'refused'} (${c.note})`);
  }
  return out;
}
