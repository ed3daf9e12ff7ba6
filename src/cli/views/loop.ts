/** What the CLI prints about loops and projects: one-line views of records, positions, results and attempts, and the status views. */
import { describeBinding } from '../../core/hosts';
import { sandboxLine } from '../../core/sandbox';
import { type IterationRecord, type LoopResult, type LoopState } from '../../core/loop-types';
import type { AttemptRecord, ProjectState } from '../../core/project-machine';
import { childGateLines, type ChildGate } from '../../core/child-gates';
import { trajectoryOf } from '../../core/report';
import type { LoopFlag } from '../../core/stats';
import { antiLazinessSummary, qualityBars, regressionsView } from '../../views/report';
import { routingStatusLines } from '../../core/routing/tracker';

import { formatDuration, table } from '../run-command';
import { gateLines, shellQuote } from '../signal-helpers';

/** Shortens text to `width` characters with an ellipsis. */
export const clip = (s: string, width: number): string => (s.length > width ? `${s.slice(0, width - 1)}…` : s);

/** One line about a finished iteration: outcome, agent exit, check and duration. */
export function recordLine(r: IterationRecord): string {
  const agent = r.agent.failure ? `agent failed (${r.agent.failure})` : `agent exit ${r.agent.exitCode ?? '-'}`;
  const claim = r.agent.claimed ? (r.claimOverridden ? ' · claimed done (overridden)' : ' · claimed done') : '';
  const files = r.changes ? ` · ${r.changes.added + r.changes.modified + r.changes.deleted} files changed` : '';
  const found = r.detections?.length ? ` · ${r.verdict ?? 'WARN'}: ${r.detections.join(', ')}` : '';
  return `iteration ${r.n} → ${r.outcome} · ${agent}${claim} · check ${checkText(r)}${files}${found} · ${formatDuration(r.durationMs)}`;
}

/** The check column of a record: passed, failed (exit n), timed out or not run. */
export function checkText(r: IterationRecord): string {
  if (!r.check) return 'not run';
  if (r.check.passed) return 'passed';
  return r.check.timedOut ? 'timed out' : `failed (exit ${r.check.exitCode ?? '-'})`;
}

/** A short excerpt of the feedback the next prompt carries: its first line and the first lines of tool output. */
export function feedbackExcerpt(feedback: string[], width = 110): string[] {
  const first = feedback[0];
  if (!first) return [];
  const clip = (s: string): string => (s.length > width ? `${s.slice(0, width - 1)}…` : s);
  const lines = first.split('\n');
  const out = [clip(lines[0])];
  const outputAt = lines.findIndex((l) => /^(Output|Last output):$/.test(l.trim()));
  if (outputAt >= 0)
    out.push(
      ...lines
        .slice(outputAt + 1)
        .filter((l) => l.trim())
        .slice(0, 2)
        .map((l) => `| ${clip(l.trim())}`),
    );
  return out;
}

/** One line saying how a loop ended. */
export function resultLine(r: LoopResult): string {
  const by = r.by ? ` (${r.by})` : '';
  if (r.status === 'accepted')
    return `accepted by ${r.acceptedBy ?? 'check'}${by} after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}: ${r.reason}`;
  return `${r.status}${by} after ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}: ${r.reason}`;
}

/** Where a loop stands, as `iteration 2/10 · agent · running` (the iteration being worked on while it runs). */
export function positionLine(s: LoopState, o: { checking?: boolean } = {}): string {
  if (s.phase === 'done') return `iteration ${s.iteration}/${s.maxIterations} · done`;
  if (s.phase === 'starting')
    return `starting (${s.maxIterations ? `max ${s.maxIterations} iterations` : 'validating input'})`;
  const working = s.phase === 'agent' || s.phase === 'checking';
  const n = working ? s.iteration + 1 : s.iteration;
  // The loop records an iteration before it moves to the next phase, so "checking" is also seen briefly after the
  // check ran: followers pass checking=false and show it as the agent phase of the next iteration.
  const phase = s.phase === 'checking' && o.checking === false ? 'agent' : s.phase;
  const where = phase === s.status ? phase : `${phase} · ${s.status}`;
  return `iteration ${n}/${s.maxIterations} · ${where}`;
}

/** One line about an ended attempt: task, attempt, outcome, timeout, and BLOCKED when it was the task's last. */
export function attemptLine(task: { id: string; status: string; blockReason?: string }, a: AttemptRecord): string {
  const last = task.status === 'blocked' ? ` → BLOCKED (${task.blockReason ?? 'unknown'})` : '';
  const reason = a.reason ? ` · ${a.reason.length > 80 ? `${a.reason.slice(0, 79)}…` : a.reason}` : '';
  return `${task.id} attempt ${a.n} → ${a.outcome ?? 'running'} · timeout ${a.timeoutSeconds} s${reason}${last}`;
}

/** One line saying how a project ended. */
export function projectResultLine(r: ProjectFollowResult): string {
  const counts = `${r.done.length} done, ${r.blocked.length} blocked, ${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`;
  if (r.status === 'failed' || r.status === 'aborted') return `project ${r.status} (${counts}): ${r.reason}`;
  return `project ${r.status.replace(/_/g, ' ')}: ${counts}`;
}

/** How many iteration records and signals the human view shows. */
export const RECORDS_SHOWN = 10;

export const SIGNALS_SHOWN = 5;

/** The human view of a loop's state, as lines (a pending gate's evidence in ANSI colours when `color`). */
export function statusLines(
  s: LoopState,
  connectionFlags = '',
  workflowStatus = 'RUNNING',
  failure?: string,
  color = false,
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
  field('sandbox', s.sandbox && sandboxLine(s.sandbox));
  const labels = Object.entries(s.labels ?? {});
  field('labels', labels.map(([k, v]) => `${k}=${v}`).join(' '));
  if (failure) field('failure', failure);
  if (s.routing) out.push('', ...routingStatusLines(s.routing));

  if (s.pendingGate) out.push('', ...gateLines(s.loopId, s.pendingGate, connectionFlags, color));
  if (s.pendingGuidance) out.push('', `guidance for the next prompt: ${s.pendingGuidance}`);
  if (s.pendingAnswer) out.push('', `answer from ${s.pendingAnswer.by} for the next prompt: ${s.pendingAnswer.text}`);
  if (s.questions)
    out.push(
      '',
      `questions: ${s.questions.asked} asked of ${s.questions.max} allowed, ${s.questions.answered} answered`,
    );

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
 * A loop's flags (`ralph flag`: accepted work that was bad after all), oldest first: one line per flag, when, by whom
 * and why. Nothing when there are none.
 */
export function flagLines(flags: LoopFlag[] | undefined): string[] {
  if (!flags?.length) return [];
  return [
    '',
    `flagged ${flags.length} time${flags.length === 1 ? '' : 's'} (\`ralph stats\` counts the loop as a false negative):`,
    ...flags.map((f) => `  ${f.at} by ${f.by ?? 'unknown'}: ${f.reason.replace(/\s+/g, ' ').trim()}`),
  ];
}

/**
 * The views `--persistence`, `--regressions` and `--quality` select, in that order, as lines and as JSON (one flag:
 * that view's object; several: an object keyed by flag). `undefined` when no view flag is set.
 */
export function antiLazinessViews(
  s: LoopState,
  o: { persistence?: boolean; regressions?: boolean; quality?: boolean },
): { lines: string[]; json: unknown } | undefined {
  const parts: { key: string; lines: string[]; json: unknown }[] = [];
  if (o.persistence) parts.push({ key: 'persistence', lines: antiLazinessSummary(s), json: s.persistence ?? null });
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
export function projectStatusLines(
  s: ProjectState,
  workflowStatus = 'RUNNING',
  childGates: ChildGate[] = [],
  connectionFlags = '',
): string[] {
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
  // A child's gate pauses the whole project: said before the table, with the command that answers it.
  for (const g of childGates) out.push('', ...childGateLines(g, shellQuote, connectionFlags));
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

/** How a followed project stood when `ralph start --prd --follow` stopped watching it. */
export interface ProjectFollowResult {
  projectId: string;
  /** `waiting_operator`: only blocked tasks are left; `failed`: the workflow failed (an invalid PRD, say). */
  status: 'done' | 'finished_with_blocked' | 'aborted' | 'waiting_operator' | 'failed';
  reason: string;
  done: string[];
  blocked: { id: string; reason?: string; details?: string }[];
  attempts: number;
}
