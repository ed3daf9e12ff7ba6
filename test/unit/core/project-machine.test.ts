import { defaultTimeoutsConfig } from '../../../src/config/timeouts-config';
import { ProjectMachine, taskPrompt, type TaskSpec } from '../../../src/core/project-machine';

const NOW = '2026-01-01T00:00:00.000Z';
const spec = (id: string, title: string, priority: number, o: Partial<TaskSpec> = {}): TaskSpec => ({
  id,
  title,
  priority,
  done: false,
  dependsOn: [],
  ...o,
});
const machine = (tasks: TaskSpec[], autoUnblock = false) =>
  new ProjectMachine(defaultTimeoutsConfig(), { projectId: 'p', prdFile: '/w/prd.json', tasks, now: NOW }, autoUnblock);

/** Runs the next task's attempt to the given outcome. */
function attempt(m: ProjectMachine, outcome: Parameters<ProjectMachine['finishAttempt']>[1]) {
  const t = m.next(NOW)!;
  const a = m.startAttempt(t, `p--${t.id}--a${t.attempts.length + 1}`, NOW);
  m.finishAttempt(t, outcome, outcome, NOW);
  return { t, a };
}

describe('ProjectMachine', () => {
  it('picks tasks by priority, skips done ones, and waits for dependencies', () => {
    const m = machine([
      spec('A', 'Fix a', 2),
      spec('B', 'Fix b', 1, { dependsOn: ['C'] }),
      spec('C', 'Fix c', 3),
      spec('D', 'Fix d', 0, { done: true }),
    ]);
    const order: string[] = [];
    for (let t = m.next(NOW); t; t = m.next(NOW)) {
      order.push(t.id);
      m.startAttempt(t, 'x', NOW);
      m.finishAttempt(t, 'accepted', 'ok', NOW);
    }
    expect(order).toEqual(['A', 'C', 'B']);
    expect(m.allDone).toBe(true);
  });

  it('peeks at the task next() would pick without changing any task (for wait predicates)', () => {
    const m = machine([spec('A', 'Fix a', 1), spec('B', 'Fix b', 2, { dependsOn: ['A'] }), spec('C', 'Fix c', 3)]);
    for (let i = 0; i < 3; i++) attempt(m, 'gate_failure');
    expect(m.task('A')!.status).toBe('blocked');
    const before = JSON.stringify(m.state);
    expect(m.peek()?.id).toBe('C');
    expect(JSON.stringify(m.state)).toBe(before);
    expect(m.task('B')!.status).toBe('pending');
    expect(m.next(NOW)?.id).toBe('C');
    expect(m.task('B')).toMatchObject({ status: 'blocked', blockReason: 'dependency' });
  });

  it('classifies complexity and scales the timeout by 1.5 after each timeout', () => {
    const m = machine([spec('U', 'Build the dashboard chart view', 1)]);
    const first = attempt(m, 'timeout');
    expect(first.t.complexity).toBe('ui_heavy');
    expect(first.a.timeoutSeconds).toBe(1800);
    const second = attempt(m, 'timeout');
    expect(second.a.timeoutSeconds).toBe(2700);
    expect(second.a.why).toContain('x1.5^1');
  });

  it('blocks after maxAttemptsPerTask failures with the shared reason, or attempt_limit when mixed', () => {
    const m = machine([spec('A', 'Fix a', 1), spec('B', 'Fix b', 2)]);
    for (let i = 0; i < 3; i++) attempt(m, 'gate_failure');
    expect(m.task('A')).toMatchObject({ status: 'blocked', blockReason: 'gate_failure' });
    attempt(m, 'timeout');
    attempt(m, 'no_files');
    attempt(m, 'timeout');
    expect(m.task('B')).toMatchObject({ status: 'blocked', blockReason: 'attempt_limit' });
    expect(m.next(NOW)).toBeUndefined();
  });

  it('blocks dependents of a blocked task (dependency) and frees them when it is unblocked', () => {
    const m = machine([spec('A', 'Fix a', 1), spec('B', 'Fix b', 2, { dependsOn: ['A'] })]);
    for (let i = 0; i < 3; i++) attempt(m, 'gate_failure');
    expect(m.next(NOW)).toBeUndefined();
    expect(m.task('B')).toMatchObject({ status: 'blocked', blockReason: 'dependency' });
    expect(m.unblock({ taskIds: ['A'], timeoutSeconds: 900, by: 'ops' }, NOW)).toMatchObject({ applied: true });
    expect(m.task('B')!.status).toBe('pending');
    const again = attempt(m, 'accepted');
    expect(again.a.timeoutSeconds).toBe(900);
    expect(m.next(NOW)!.id).toBe('B');
  });

  it('refuses bad unblocks with a message naming the problem', () => {
    const m = machine([spec('A', 'Fix a', 1)]);
    expect(m.validateUnblock({ taskIds: ['Z'] })).toMatch(/no task "Z".*tasks: A/);
    expect(m.validateUnblock({ taskIds: ['A'] })).toBe('task A is not blocked (it is pending)');
    expect(m.validateUnblock({ filter: 'ui_heavy' })).toMatch(/no blocked ui_heavy task/);
    expect(m.validateUnblock({ taskIds: ['A'], timeoutSeconds: -1 })).toMatch(/timeout must be a positive/);
    expect(m.unblock({ taskIds: ['Z'] }, NOW).applied).toBe(false);
    expect(m.state.commands[0]).toMatchObject({ name: 'unblock', applied: false });
  });

  it('unblocks by complexity filter with a timeout multiplier, and retry-blocked grants one attempt each', () => {
    const m = machine([spec('U', 'Settings screen', 1), spec('S', 'Fix the bug', 2)]);
    for (let i = 0; i < 6; i++) attempt(m, 'timeout');
    expect(m.state.tasks.map((t) => t.status)).toEqual(['blocked', 'blocked']);
    const r = m.unblock({ filter: 'ui_heavy', timeoutMultiplier: 3 }, NOW);
    expect(r.tasks).toEqual(['U']);
    expect(m.timeoutFor(m.task('U')!).why).toContain('x3.0 (operator)');
    attempt(m, 'timeout');
    attempt(m, 'timeout');
    attempt(m, 'timeout');
    expect(m.retryBlocked({}, NOW).tasks).toEqual(['U', 'S']);
    attempt(m, 'timeout');
    attempt(m, 'timeout');
    expect(m.state.tasks.map((t) => [t.status, t.attempts.length])).toEqual([
      ['blocked', 7],
      ['blocked', 4],
    ]);
  });

  it('unblocks automatically at most maxAutoUnblockAttempts times when asked to', () => {
    const m = machine([spec('A', 'Fix a', 1)], true);
    for (let i = 0; i < 3; i++) attempt(m, 'timeout');
    expect(m.task('A')).toMatchObject({ status: 'pending', autoUnblocks: 1 });
    attempt(m, 'timeout');
    expect(m.task('A')).toMatchObject({ status: 'blocked', blockReason: 'timeout' });
    expect(m.task('A')!.unblocks[0]).toMatchObject({ auto: true, attempts: 1, from: 'timeout' });
  });

  it('builds a task prompt from the preamble, the task and its acceptance criteria', () => {
    const m = machine([spec('T1', 'Add login', 1, { description: 'Users log in.', acceptanceCriteria: ['a form'] })]);
    const p = taskPrompt(m.task('T1')!, 'Project rules.');
    expect(p).toBe(
      'Project rules.\n\nTask T1: Add login\n\nUsers log in.\n\nAcceptance criteria:\n- a form\n\n' +
        'Work only on this task; the other tasks of the project are handled separately.',
    );
  });
});
