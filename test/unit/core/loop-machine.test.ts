import { LoopMachine, normalisePayload } from '../../../src/core/loop-machine';
import type { IterationRecord } from '../../../src/core/loop-types';

const T = '2026-11-22T10:00:00.000Z';
const machine = (max = 2): LoopMachine =>
  new LoopMachine(
    {
      loopId: 'l1',
      maxIterations: max,
      agent: 'scripted',
      workspace: '/w',
      stateDir: '/w/.ralph',
      defaultExtraIterations: 3,
      labels: {},
    },
    T,
  );

const record = (n: number, over: Partial<IterationRecord> = {}): IterationRecord => ({
  n,
  startedAt: T,
  durationMs: 1000,
  agent: {
    exitCode: 0,
    durationMs: 800,
    claimed: false,
    outputBytes: 10,
    claimedFiles: 0,
    attempts: 1,
    usage: { inputTokens: 5, outputTokens: 1, costUsd: 0.1 },
  },
  check: { passed: false, exitCode: 1, durationMs: 100 },
  outcome: 'continue',
  artifactDir: '/x',
  ...over,
});

describe('LoopMachine', () => {
  it('counts totals exactly, including float costs, and keeps the feedback for the next prompt', () => {
    const m = machine();
    m.recordIteration(record(1), ['fix it'], T);
    m.recordIteration(
      record(2, { agent: { ...record(2).agent, claimed: true, exitCode: 3, usage: { costUsd: 0.2 } } }),
      [],
      T,
    );
    expect(m.state.totals).toMatchObject({
      iterations: 2,
      claims: 1,
      checksRun: 2,
      checksFailed: 2,
      agentFailures: 1,
      inputTokens: 5,
      costUsd: 0.3,
      agentMs: 1600,
      checkMs: 200,
    });
    expect(m.budgetExhausted).toBe(true);
    expect(m.state.pendingFeedback).toEqual([]);
  });

  it('ignores approve with no pending gate and applies it to the pending gate once', () => {
    const m = machine();
    expect(m.applySignal('approve', { by: 'a' }, T)).toMatchObject({ applied: false });
    const gate = m.openGate(
      { reason: 'max_iterations', title: 't', details: 'd', options: ['approve', 'reject', 'abort'] },
      T,
    );
    expect(m.state.status).toBe('awaiting_human');
    expect(m.applySignal('approve', { gateId: 'other@1' }, T).note).toMatch(/pending gate is max_iterations@0/);
    expect(m.applySignal('approve', { gateId: gate.id, by: 'a' }, T).applied).toBe(true);
    expect(m.pendingDecision).toMatchObject({ decision: 'approve', by: 'a' });
    expect(m.applySignal('approve', { by: 'a' }, T).applied).toBe(false);
  });

  it('grants extra iterations and guidance on reject', () => {
    const m = machine(1);
    m.recordIteration(record(1), [], T);
    m.openGate({ reason: 'max_iterations', title: 't', details: 'd', options: ['approve', 'reject', 'abort'] }, T);
    m.applySignal('reject', { guidance: 'try X' }, T);
    expect(m.state.maxIterations).toBe(4);
    expect(m.promptInputs().guidance).toBe('try X');
    m.recordIteration(record(2), [], T);
    expect(m.promptInputs().guidance).toBeUndefined();
  });

  it('dedupes by requestId, and ignores everything once finished', () => {
    const m = machine();
    expect(m.applySignal('pause', { requestId: 'r' }, T).applied).toBe(true);
    expect(m.applySignal('resume', { requestId: 'r' }, T).note).toMatch(/duplicate/);
    m.finish({ status: 'aborted', reason: 'x' }, '/s', T);
    expect(m.applySignal('resume', {}, T).note).toMatch(/already ended \(aborted\)/);
  });

  it('carries its state across continue-as-new and counts the run', () => {
    const m = machine();
    m.recordIteration(record(1), ['f'], T);
    m.applySignal('pause', { requestId: 'r1' }, T);
    const next = new LoopMachine(
      {
        loopId: 'l1',
        maxIterations: 9,
        agent: 'x',
        workspace: '',
        stateDir: '',
        defaultExtraIterations: 3,
        labels: {},
      },
      T,
      m.carry(),
    );
    expect(next.state).toMatchObject({ run: 1, iteration: 1, maxIterations: 2, paused: true, pendingFeedback: ['f'] });
    expect(next.applySignal('pause', { requestId: 'r1' }, T).applied).toBe(false);
  });
});

describe('normalisePayload', () => {
  it.each([
    [undefined, {}],
    ['just a reason', { reason: 'just a reason' }],
    [[1, 2], {}],
    [{ by: 5, reason: 'r', extraIterations: -1 }, { reason: 'r' }],
    [
      { extraIterations: 2, guidance: 'g' },
      { extraIterations: 2, guidance: 'g' },
    ],
  ])('keeps only well-typed fields of %j', (raw, expected) => {
    expect(JSON.parse(JSON.stringify(normalisePayload(raw)))).toEqual(expected);
  });
});
