/**
 * The rules of a `ralphProject` (a PRD worked task by task), pure and deterministic: which task runs next (priority,
 * dependencies, done and blocked skipped), the adaptive timeout of its next attempt, how an attempt's end is recorded,
 * when a task is BLOCKED and why, and what an operator's unblock / retry-blocked does. The workflow owns one
 * {@link ProjectMachine}; its state is what the `tasks` query returns and what continue-as-new carries.
 */
import {
  adaptiveTimeout,
  classifyComplexity,
  type BlockReason,
  type Complexity,
  type TimeoutSettings,
} from './complexity';

/** How one attempt (one child loop) at a task ended. */
export type AttemptOutcome = 'accepted' | 'timeout' | 'no_files' | 'gate_failure' | 'aborted';

/** One attempt at a task. */
export interface AttemptRecord {
  n: number;
  /** The child loop's workflow id. */
  loopId: string;
  /** The agent activity's startToCloseTimeout for this attempt, and how it was computed. */
  timeoutSeconds: number;
  why: string;
  outcome?: AttemptOutcome;
  /** The child loop's reason (why it ended). */
  reason?: string;
  startedAt: string;
  endedAt?: string;
}

/** An operator's (or the automatic) unblock of a task. */
export interface UnblockRecord {
  at: string;
  by?: string;
  reason?: string;
  timeoutSeconds?: number;
  multiplier?: number;
  /** Attempts granted (default: `maxAttemptsPerTask`). */
  attempts: number;
  auto?: boolean;
  /** The block it lifted. */
  from: BlockReason;
}

/** Where a task stands. */
export type TaskStatus = 'pending' | 'running' | 'done' | 'blocked';

/** One task of the project and its history. */
export interface ProjectTask {
  id: string;
  title: string;
  description?: string;
  acceptanceCriteria: string[];
  priority: number;
  dependsOn: string[];
  complexity: Complexity;
  complexityReasons: string[];
  status: TaskStatus;
  attempts: AttemptRecord[];
  /** Failed attempts since the task was (un)blocked last; it blocks at `attemptBudget`. */
  failures: number;
  /** Attempts this round may use before the task blocks. */
  attemptBudget: number;
  /** Attempts that ended in a timeout since the last operator timeout (the adaptive backoff exponent). */
  timeoutFailures: number;
  blockReason?: BlockReason;
  blockDetails?: string;
  /** Operator's timeout (seconds, as typed) and extra multiplier for the next attempts. */
  timeoutOverride?: number;
  extraMultiplier?: number;
  unblocks: UnblockRecord[];
  autoUnblocks: number;
}

/** The project's state (the `tasks` query). */
export interface ProjectState {
  projectId: string;
  prdFile: string;
  status: 'running' | 'waiting_operator' | 'done' | 'aborted';
  tasks: ProjectTask[];
  /** The task running now. */
  current?: string;
  attemptsRun: number;
  startedAt: string;
  updatedAt: string;
  run: number;
  /** Operator commands, applied or refused, newest last (30 kept). */
  commands: { name: string; at: string; by?: string; applied: boolean; note: string }[];
}

/** A task as the PRD gives it (what the machine needs). */
export interface TaskSpec {
  id: string;
  title: string;
  description?: string;
  acceptanceCriteria?: string[];
  priority: number;
  done: boolean;
  dependsOn: string[];
}

/** Options of an unblock. */
export interface UnblockRequest {
  /** Task ids; with none, `filter` picks the tasks. */
  taskIds?: string[];
  /** Every blocked task of this complexity. */
  filter?: Complexity;
  /** Timeout (seconds) of the next attempts, as typed. */
  timeoutSeconds?: number;
  /** Extra multiplier of the adaptive timeout. */
  timeoutMultiplier?: number;
  /** Attempts granted (default `maxAttemptsPerTask`). */
  maxAttempts?: number;
  reason?: string;
  by?: string;
}

const outcomeBlock: Record<Exclude<AttemptOutcome, 'accepted'>, BlockReason> = {
  timeout: 'timeout',
  no_files: 'no_files',
  gate_failure: 'gate_failure',
  aborted: 'manual',
};

/** The project's rules over {@link ProjectState}. */
export class ProjectMachine {
  readonly state: ProjectState;

  constructor(
    private readonly cfg: TimeoutSettings,
    init: { projectId: string; prdFile: string; tasks: TaskSpec[]; now: string } | { carry: ProjectState; now: string },
    private readonly autoUnblock = false,
  ) {
    if ('carry' in init) {
      this.state = { ...init.carry, run: init.carry.run + 1, updatedAt: init.now };
      return;
    }
    this.state = {
      projectId: init.projectId,
      prdFile: init.prdFile,
      status: 'running',
      tasks: init.tasks.map((t) => {
        const c = classifyComplexity(
          { title: t.title, description: t.description, acceptanceCriteria: t.acceptanceCriteria },
          cfg,
        );
        return {
          id: t.id,
          title: t.title,
          description: t.description,
          acceptanceCriteria: t.acceptanceCriteria ?? [],
          priority: t.priority,
          dependsOn: t.dependsOn,
          complexity: c.complexity,
          complexityReasons: c.reasons,
          status: t.done ? 'done' : 'pending',
          attempts: [],
          failures: 0,
          attemptBudget: cfg.maxAttemptsPerTask,
          timeoutFailures: 0,
          unblocks: [],
          autoUnblocks: 0,
        };
      }),
      attemptsRun: 0,
      startedAt: init.now,
      updatedAt: init.now,
      run: 0,
      commands: [],
    };
  }

  /** A task by id. */
  task(id: string): ProjectTask | undefined {
    return this.state.tasks.find((t) => t.id === id);
  }

  /**
   * The next task to run: pending, every dependency done, lowest priority number first (file order on ties). Pending
   * tasks that wait on a blocked task are marked blocked (`dependency`) on the way.
   */
  next(now: string): ProjectTask | undefined {
    this.blockDependents(now);
    return this.peek();
  }

  /**
   * The task {@link next} would pick, without changing any state: for wait predicates, which must only read. (A task
   * that waits on a blocked one is never a candidate, so marking it blocked does not change the answer.)
   */
  peek(): ProjectTask | undefined {
    const done = new Set(this.state.tasks.filter((t) => t.status === 'done').map((t) => t.id));
    return this.state.tasks
      .filter((t) => t.status === 'pending' && t.dependsOn.every((d) => done.has(d)))
      .sort((a, b) => a.priority - b.priority)[0];
  }

  /** True when every task is done. */
  get allDone(): boolean {
    return this.state.tasks.every((t) => t.status === 'done');
  }

  /** The adaptive timeout of a task's next attempt. */
  timeoutFor(t: ProjectTask): { seconds: number; why: string } {
    return adaptiveTimeout({
      complexity: t.complexity,
      previousTimeoutFailures: t.timeoutFailures,
      cfg: this.cfg,
      overrideSeconds: t.timeoutOverride,
      extraMultiplier: t.extraMultiplier,
    });
  }

  /** Records the start of an attempt (its child loop id and timeout). */
  startAttempt(t: ProjectTask, loopId: string, now: string): AttemptRecord {
    const { seconds, why } = this.timeoutFor(t);
    const a: AttemptRecord = { n: t.attempts.length + 1, loopId, timeoutSeconds: seconds, why, startedAt: now };
    t.attempts.push(a);
    t.status = 'running';
    this.state.current = t.id;
    this.state.attemptsRun++;
    this.state.updatedAt = now;
    return a;
  }

  /**
   * Records how an attempt ended. Accepted: the task is done. Otherwise a failure; at the attempt budget the task is
   * BLOCKED with the reason its failures share (`timeout`, `no_files`, `gate_failure`; mixed: `attempt_limit`), and,
   * when automatic unblock is on and allowed, unblocked once more with the adaptive timeout.
   */
  finishAttempt(t: ProjectTask, outcome: AttemptOutcome, reason: string, now: string): void {
    const a = t.attempts[t.attempts.length - 1];
    if (a) {
      a.outcome = outcome;
      a.reason = reason;
      a.endedAt = now;
    }
    this.state.current = undefined;
    this.state.updatedAt = now;
    if (outcome === 'accepted') {
      t.status = 'done';
      return;
    }
    t.status = 'pending';
    t.failures++;
    if (outcome === 'timeout') t.timeoutFailures++;
    if (t.failures < t.attemptBudget && outcome !== 'aborted') return;
    const recent = t.attempts.slice(-t.failures).map((x) => x.outcome);
    const same = recent.every((o) => o === outcome);
    this.block(
      t,
      outcome === 'aborted' ? 'manual' : same ? outcomeBlock[outcome] : 'attempt_limit',
      `${t.failures} failed attempt${t.failures === 1 ? '' : 's'} (${recent.join(', ')}); last: ${reason}`,
    );
    if (this.autoUnblock && t.autoUnblocks < this.cfg.maxAutoUnblockAttempts && outcome !== 'aborted') {
      t.autoUnblocks++;
      this.lift(t, { reason: 'automatic unblock', maxAttempts: 1 }, now, true);
    }
  }

  /** Blocks a task (and says why). */
  block(t: ProjectTask, reason: BlockReason, details: string): void {
    t.status = 'blocked';
    t.blockReason = reason;
    t.blockDetails = details;
  }

  /**
   * An operator's unblock: named tasks, or every blocked task of a complexity. Refuses (applied false, with a note
   * naming what's wrong) unknown ids, tasks that aren't blocked, an empty selection, and bad numbers.
   */
  unblock(r: UnblockRequest, now: string): { applied: boolean; note: string; tasks: string[] } {
    const problem = this.validateUnblock(r);
    if (problem) return this.command('unblock', r.by, now, false, problem, []);
    const picked = this.pick(r);
    for (const t of picked) this.lift(t, r, now, false);
    return this.command(
      'unblock',
      r.by,
      now,
      true,
      `unblocked ${picked.map((t) => t.id).join(', ')}` +
        (r.timeoutSeconds ? ` with timeout ${r.timeoutSeconds} s` : '') +
        (r.timeoutMultiplier ? ` with timeout x${r.timeoutMultiplier}` : ''),
      picked.map((t) => t.id),
    );
  }

  /** Checks an unblock request; returns what's wrong, or undefined. */
  validateUnblock(r: UnblockRequest): string | undefined {
    const positive = (v: number | undefined): boolean => v === undefined || (Number.isFinite(v) && v > 0);
    if (!positive(r.timeoutSeconds)) return `timeout must be a positive number of seconds, got ${r.timeoutSeconds}`;
    if (!positive(r.timeoutMultiplier)) return `timeout multiplier must be positive, got ${r.timeoutMultiplier}`;
    if (!positive(r.maxAttempts) || (r.maxAttempts !== undefined && !Number.isInteger(r.maxAttempts)))
      return `max attempts must be a positive integer, got ${r.maxAttempts}`;
    for (const id of r.taskIds ?? []) {
      const t = this.task(id);
      if (!t)
        return `no task "${id}" in ${this.state.prdFile} (tasks: ${this.state.tasks.map((x) => x.id).join(', ')})`;
      if (t.status !== 'blocked') return `task ${id} is not blocked (it is ${t.status})`;
    }
    if (!this.pick(r).length)
      return r.filter
        ? `no blocked ${r.filter} task (blocked: ${this.blockedIds() || 'none'})`
        : `no task to unblock: name task ids or a --filter (blocked: ${this.blockedIds() || 'none'})`;
    return undefined;
  }

  /** Retries every blocked task once more (or `maxAttempts` times). */
  retryBlocked(r: { maxAttempts?: number; reason?: string; by?: string }, now: string) {
    const blocked = this.state.tasks.filter((t) => t.status === 'blocked');
    if (!blocked.length) return this.command('retry-blocked', r.by, now, false, 'no task is blocked', []);
    return this.unblock({ ...r, taskIds: blocked.map((t) => t.id), maxAttempts: r.maxAttempts ?? 1 }, now);
  }

  private pick(r: UnblockRequest): ProjectTask[] {
    if (r.taskIds?.length) return r.taskIds.map((id) => this.task(id)).filter((t): t is ProjectTask => !!t);
    if (r.filter) return this.state.tasks.filter((t) => t.status === 'blocked' && t.complexity === r.filter);
    return [];
  }

  private blockedIds(): string {
    return this.state.tasks
      .filter((t) => t.status === 'blocked')
      .map((t) => t.id)
      .join(', ');
  }

  private lift(t: ProjectTask, r: UnblockRequest, now: string, auto: boolean): void {
    t.unblocks.push({
      at: now,
      by: r.by,
      reason: r.reason,
      timeoutSeconds: r.timeoutSeconds,
      multiplier: r.timeoutMultiplier,
      attempts: r.maxAttempts ?? this.cfg.maxAttemptsPerTask,
      auto: auto || undefined,
      from: t.blockReason ?? 'manual',
    });
    if (r.timeoutSeconds !== undefined) {
      t.timeoutOverride = r.timeoutSeconds;
      t.timeoutFailures = 0;
    }
    if (r.timeoutMultiplier !== undefined) t.extraMultiplier = r.timeoutMultiplier;
    t.status = 'pending';
    t.failures = 0;
    t.attemptBudget = r.maxAttempts ?? this.cfg.maxAttemptsPerTask;
    t.blockReason = undefined;
    t.blockDetails = undefined;
    // Tasks blocked only because they waited on this one can run again once it is done.
    for (const d of this.state.tasks)
      if (d.status === 'blocked' && d.blockReason === 'dependency' && this.waitsOn(d, t.id)) {
        d.status = 'pending';
        d.blockReason = undefined;
        d.blockDetails = undefined;
      }
  }

  private waitsOn(t: ProjectTask, id: string, seen = new Set<string>()): boolean {
    if (seen.has(t.id)) return false;
    seen.add(t.id);
    return t.dependsOn.some((d) => d === id || (this.task(d) ? this.waitsOn(this.task(d)!, id, seen) : false));
  }

  private blockDependents(now: string): void {
    let changed = true;
    while (changed) {
      changed = false;
      for (const t of this.state.tasks) {
        if (t.status !== 'pending') continue;
        const dep = t.dependsOn.map((d) => this.task(d)).find((d) => d?.status === 'blocked');
        if (!dep) continue;
        this.block(t, 'dependency', `waits on ${dep.id} (blocked: ${dep.blockReason})`);
        this.state.updatedAt = now;
        changed = true;
      }
    }
  }

  private command(name: string, by: string | undefined, now: string, applied: boolean, note: string, tasks: string[]) {
    this.state.commands.push({ name, at: now, by, applied, note });
    if (this.state.commands.length > 30) this.state.commands.splice(0, this.state.commands.length - 30);
    this.state.updatedAt = now;
    return { applied, note, tasks };
  }
}

/** The prompt of one task: the project's preamble, the task, its acceptance criteria. */
export function taskPrompt(t: ProjectTask, preamble?: string): string {
  const parts: string[] = [];
  if (preamble?.trim()) parts.push(preamble.trim());
  parts.push(`Task ${t.id}: ${t.title}`);
  if (t.description?.trim() && t.description.trim() !== t.title) parts.push(t.description.trim());
  if (t.acceptanceCriteria.length)
    parts.push(`Acceptance criteria:\n${t.acceptanceCriteria.map((c) => `- ${c}`).join('\n')}`);
  parts.push('Work only on this task; the other tasks of the project are handled separately.');
  return parts.join('\n\n');
}
