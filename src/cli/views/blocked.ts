/** The blocked-task view of a project (why each task blocked, what to do, the command that does it): `ralph blocked` and `start --prd --follow`. */
import {
  suggestStrategy,
  TIMEOUT_DEFAULTS,
  type BlockReason,
  type Complexity,
  type UnblockStrategy,
} from '../../core/complexity';
import type { ProjectState, ProjectTask } from '../../core/project-machine';
import { shellQuote } from '../signal-helpers';
import { clip } from './loop';

/** What to do about a blocked task, and the command that does it. */
export interface BlockedSuggestion {
  strategy: UnblockStrategy;
  why: string;
  /** What the operator should do before (or instead of) the command, when the command alone isn't the fix. */
  note?: string;
  /** The exact command to run. */
  command: string;
}

/** One blocked task as `ralph blocked` shows it. */
export interface BlockedTaskView {
  id: string;
  title: string;
  complexity: Complexity;
  reason: BlockReason;
  details?: string;
  attempts: number;
  outcomes: string[];
  /** The timeout (seconds) of every attempt, in order. */
  timeoutsTried: number[];
  /** The child loop of the last attempt (`ralph status <it>` shows its iterations). */
  lastLoopId?: string;
  suggestion?: BlockedSuggestion;
}

/** The timeout ceiling the project used: read from an attempt clamped to it, else the default. */
export function maxSecondsOf(s: ProjectState): number {
  for (const t of s.tasks)
    for (const a of t.attempts) {
      const m = /clamped to max (\d+) s/.exec(a.why);
      if (m) return Number(m[1]);
    }
  return TIMEOUT_DEFAULTS.maxSeconds;
}

/** The task a dependency-blocked task ultimately waits on: the first blocked task up its chain not blocked for that. */
export function rootBlocker(s: ProjectState, t: ProjectTask, seen = new Set<string>()): ProjectTask | undefined {
  seen.add(t.id);
  for (const id of t.dependsOn) {
    const d = s.tasks.find((x) => x.id === id);
    if (!d || d.status !== 'blocked' || seen.has(d.id)) continue;
    return d.blockReason === 'dependency' ? (rootBlocker(s, d, seen) ?? d) : d;
  }
  return undefined;
}

/** The suggestion for one blocked task, with the exact command. */
export function suggestionFor(s: ProjectState, t: ProjectTask, connectionFlags = ''): BlockedSuggestion {
  const reason = t.blockReason ?? 'manual';
  const maxSeconds = maxSecondsOf(s);
  const timedOut = t.attempts.filter((a) => a.outcome === 'timeout').map((a) => a.timeoutSeconds);
  const { strategy, why } = suggestStrategy(reason, {
    complexity: t.complexity,
    attempts: t.attempts.length,
    timeoutsTried: timedOut,
    maxSeconds,
  });
  const tail = connectionFlags ? ` ${connectionFlags}` : '';
  const unblock = (id: string, flags: string): string =>
    `ralph unblock ${shellQuote(s.projectId)} ${shellQuote(id)}${flags ? ` ${flags}` : ''}${tail}`;
  const lastLoop = t.attempts[t.attempts.length - 1]?.loopId;
  const review = lastLoop ? `look at its last attempt with \`ralph status ${shellQuote(lastLoop)}\`` : 'look at it';
  switch (strategy) {
    case 'increase_timeout': {
      const longest = Math.max(0, ...timedOut);
      // Double the longest timeout tried, in whole minutes, up to the ceiling: one more timeout then means split it.
      const next = Math.min(maxSeconds, Math.max(60, Math.ceil((longest * 2) / 60) * 60));
      return { strategy, why, command: unblock(t.id, `--timeout ${next}`) };
    }
    case 'fix_dependency': {
      const root = rootBlocker(s, t);
      return root
        ? {
            strategy,
            why,
            note: `unblock ${root.id} (${root.blockReason}): ${t.id} runs again once it is done`,
            command: unblock(root.id, ''),
          }
        : { strategy, why, command: unblock(t.id, '') };
    }
    case 'split_task':
      return {
        strategy,
        why,
        note: `split ${t.id} into smaller tasks in ${s.prdFile} and start a new project; or give it one more try`,
        command: unblock(t.id, '--max-attempts 1'),
      };
    case 'clarify_task':
      return {
        strategy,
        why,
        note: `this project keeps the task text it read at start: clarify ${t.id} in ${s.prdFile} for a new project, or ${review} and retry`,
        command: unblock(t.id, '--max-attempts 1'),
      };
    case 'manual_review':
      return { strategy, why, note: `${review}, then`, command: unblock(t.id, '--max-attempts 1 --reason reviewed') };
  }
}

/** The blocked tasks of a project, with suggestions when asked. */
export function blockedTasks(s: ProjectState, o: { suggest?: boolean; connectionFlags?: string } = {}) {
  return s.tasks
    .filter((t) => t.status === 'blocked')
    .map((t): BlockedTaskView => ({
      id: t.id,
      title: t.title,
      complexity: t.complexity,
      reason: t.blockReason ?? 'manual',
      details: t.blockDetails,
      attempts: t.attempts.length,
      outcomes: t.attempts.map((a) => a.outcome ?? 'running'),
      timeoutsTried: t.attempts.map((a) => a.timeoutSeconds),
      lastLoopId: t.attempts[t.attempts.length - 1]?.loopId,
      suggestion: o.suggest ? suggestionFor(s, t, o.connectionFlags) : undefined,
    }));
}

/** The blocked tasks as lines: one header per task, then its reason, attempts, timeouts, details and suggestion. */
export function blockedLines(s: ProjectState, o: { suggest?: boolean; connectionFlags?: string } = {}): string[] {
  const views = blockedTasks(s, o);
  if (!views.length) return [`no blocked task in project ${s.projectId} (${s.status.replace(/_/g, ' ')})`];
  const out: string[] = [`${views.length} blocked task${views.length === 1 ? '' : 's'} in project ${s.projectId}:`];
  const field = (k: string, v: string | undefined): void => {
    if (v) out.push(`    ${k.padEnd(9)} ${v}`);
  };
  for (const v of views) {
    out.push(`  ${v.id}  ${clip(v.title, 60)}  (${v.complexity})  blocked: ${v.reason}`);
    field('attempts', v.attempts ? `${v.attempts} (${v.outcomes.join(', ')})` : '0');
    field('timeouts', v.timeoutsTried.length ? `${v.timeoutsTried.map((n) => `${n} s`).join(', ')}` : undefined);
    field('details', v.details);
    if (v.suggestion) {
      field('suggest', `${v.suggestion.strategy}: ${v.suggestion.why}`);
      field('then', v.suggestion.note);
      field('run', v.suggestion.command);
    }
  }
  if (!o.suggest) out.push(`  see what to do with \`ralph blocked ${shellQuote(s.projectId)} --suggest\``);
  return out;
}
