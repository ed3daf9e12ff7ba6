import { LoopMachine } from '../../../src/core/loop-machine';
import {
  SUMMARY_MAX_BYTES,
  childLoopSummary,
  clipUtf8,
  loopCurrentDetails,
  loopStaticSummary,
  outcomeHeadline,
  projectCurrentDetails,
  utf8Bytes,
} from '../../../src/core/ui-details';
import type { ProjectState } from '../../../src/core/project-machine';

const NOW = '2026-01-01T00:00:00.000Z';
const machine = (): LoopMachine =>
  new LoopMachine(
    {
      loopId: 'ralph-x-abc123',
      maxIterations: 5,
      agent: 'claude-code',
      workspace: '/ws',
      stateDir: '/ws/.ralph',
      defaultExtraIterations: 3,
      labels: {},
    },
    NOW,
  );

describe('Temporal UI texts', () => {
  it('summarises a loop by the first line of its task, within 200 UTF-8 bytes, never cutting a character', () => {
    expect(loopStaticSummary({ prompt: '\n  Fix the parser  \nand more' })).toBe('Fix the parser');
    expect(loopStaticSummary({ promptFile: 'TASK.md' })).toBe('task in TASK.md');
    expect(loopStaticSummary({ prompt: '## Add a parser\n\ndetails', promptFile: 'TASK.md' })).toBe('Add a parser');
    const long = loopStaticSummary({ prompt: 'é'.repeat(300) });
    expect(utf8Bytes(long)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(long.endsWith('…')).toBe(true);
    expect(long.slice(0, -1)).toMatch(/^é+$/);
    expect(utf8Bytes('a€😀')).toBe(1 + 3 + 4);
    expect(clipUtf8('short')).toBe('short');
    expect(utf8Bytes(childLoopSummary('p'.repeat(300), 'T1', 'Add login', 2))).toBeLessThanOrEqual(200);
    expect(childLoopSummary('proj', 'T1', 'Add login\nmore', 2)).toBe('T1: Add login (attempt 2 of project proj)');
  });

  it.each([
    [{ status: 'accepted', acceptedBy: 'check', iterations: 3 }, 'ACCEPTED by the check after 3 iterations'],
    [{ status: 'accepted', acceptedBy: 'human', by: 'bob', iterations: 1 }, 'APPROVED by bob after 1 iteration'],
    [{ status: 'aborted', by: 'alice', iterations: 2 }, 'ABORTED by alice after 2 iterations'],
    [{ status: 'aborted', iterations: 0 }, 'ABORTED by an operator after 0 iterations'],
    [{ status: 'failed', iterations: 4 }, 'FAILED after 4 iterations'],
  ] as const)('heads the outcome %j as "%s"', (r, text) => {
    expect(outcomeHeadline({ reason: 'r', ...r })).toBe(text);
  });

  it('follows the machine: iteration and phase, the gate and its commands, then the outcome', () => {
    const m = machine();
    const seen: string[] = [];
    m.observe((s) => seen.push(loopCurrentDetails(s, 'Fix the parser')));
    m.setPhase('agent', NOW);
    expect(seen.pop()).toContain('**Iteration** 1/5 · **Phase**: the agent is working · **Status**: running');
    m.recordIteration(
      {
        n: 1,
        outcome: 'continue',
        agent: { exitCode: 0, durationMs: 1, claimed: false, timedOut: false },
      } as unknown as Parameters<LoopMachine['recordIteration']>[0],
      [],
      NOW,
    );
    m.setPhase('starting', NOW);
    expect(seen.pop()).toContain('**Iteration** 1/5 · **Phase**: between iterations');
    m.setPhase('checking', NOW);
    expect(seen.pop()).toContain('**Iteration** 2/5 · **Phase**: running the completion check');
    m.openGate(
      { reason: 'max_iterations', title: 'Reached 5 iterations', details: '', options: ['approve', 'abort'] },
      NOW,
    );
    const gate = seen.pop()!;
    expect(gate).toContain('**Iteration** 1/5 · **Phase**: waiting for a human');
    expect(gate).toContain('**Waiting for a human** at gate `max_iterations@1`: Reached 5 iterations');
    expect(gate).toContain('- `ralph approve ralph-x-abc123`\n- `ralph abort ralph-x-abc123`');
    expect(gate).not.toContain('ralph reject');
    m.finish({ status: 'aborted', by: 'alice', reason: 'not needed' }, '/ws/.ralph/state.json', NOW);
    const end = seen.pop()!;
    expect(end.split('\n').slice(0, 3)).toEqual(['**ABORTED by alice after 1 iteration**', '', '> not needed']);
    expect(end).not.toContain('Waiting for a human');
  });
});

describe('project UI texts', () => {
  const task = (id: string, status: string, extra: object = {}) => ({
    id,
    title: `Title of ${id}`,
    status,
    attempts: [{ n: 1, loopId: `p--${id}--a1`, timeoutSeconds: 60, why: '', startedAt: NOW }],
    ...extra,
  });
  const state = (over: object = {}) =>
    ({
      projectId: 'p',
      prdFile: 'prd.json',
      status: 'running',
      tasks: [task('T1', 'done'), task('T2', 'running'), task('T3', 'blocked', { blockReason: 'timeout' })],
      current: 'T2',
      attemptsRun: 3,
      startedAt: NOW,
      updatedAt: NOW,
      run: 0,
      commands: [],
      ...over,
    }) as unknown as ProjectState;

  it('shows the running task and its loop, the blocked tasks and the commands for them', () => {
    const md = projectCurrentDetails(state());
    expect(md).toContain('**Tasks**: 1/3 done · 1 blocked · 3 attempts · **Status**: running');
    expect(md).toContain('**Now**: T2 (Title of T2), attempt 1: loop `p--T2--a1`');
    expect(md).toContain('**Blocked**: T3 (timeout)');
    expect(md).toContain('- `ralph unblock p T3 --timeout <secs>`');
  });

  it("shows the running child loop's gate with the commands that answer it: a question, or approve/reject/abort", () => {
    const question = projectCurrentDetails(state(), undefined, {
      loopId: 'p--T2--a1',
      gate: {
        id: 'question@2',
        reason: 'question',
        title: 'The agent asks (iteration 2): Keep v1?',
        options: ['answer', 'approve', 'reject', 'abort'],
        question: { text: 'Keep v1?\nOr v2?', source: 'agent' },
      },
    });
    expect(question).toContain(
      '**Waiting for a human** at gate `question@2` (question) of loop `p--T2--a1`: the project goes on once it is answered.',
    );
    expect(question).toContain('> The agent asks: Keep v1?');
    expect(question).toContain('- `ralph answer p--T2--a1 "your answer"`\n- `ralph approve p--T2--a1`');
    const stuck = projectCurrentDetails(state(), undefined, {
      loopId: 'p--T2--a1',
      gate: {
        id: 'stuck_loop@3',
        reason: 'stuck_loop',
        title: 'reg-001: stuck_loop',
        options: ['approve', 'reject', 'abort'],
      },
    });
    expect(stuck).toContain('> reg-001: stuck_loop');
    expect(stuck).toContain(
      '- `ralph approve p--T2--a1`\n- `ralph reject p--T2--a1 --guidance "what to do differently"`\n- `ralph abort p--T2--a1`',
    );
    expect(stuck).not.toContain('ralph answer');
    // A notice of another loop (an earlier attempt) is not shown.
    expect(
      projectCurrentDetails(state(), undefined, {
        loopId: 'p--T1--a1',
        gate: { id: 'g', reason: 'x', title: 't', options: [] },
      }),
    ).not.toContain('Waiting for a human');
  });

  it('heads the end: finished with blocked tasks, aborted', () => {
    const s = state({ status: 'done', current: undefined });
    const finished = projectCurrentDetails(s, { status: 'finished_with_blocked', blocked: [{ id: 'T3' }] });
    expect(finished.split('\n')[0]).toBe('**FINISHED with 1 blocked: T3**');
    expect(finished).not.toContain('ralph unblock');
    const aborted = projectCurrentDetails(state({ status: 'aborted' }), { status: 'aborted', blocked: [] });
    expect(aborted.split('\n')[0]).toBe('**ABORTED with 1/3 tasks done**');
    expect(aborted).not.toContain('**Now**');
  });
});
