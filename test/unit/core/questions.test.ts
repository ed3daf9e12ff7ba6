import { gateLines } from '../../../src/cli/signal-helpers';
import { defaultAntiLazinessConfig } from '../../../src/config/anti-laziness-config';
import { parseLoopInput } from '../../../src/config/loop-input';
import { AntiLazinessTracker, type IterationFindings } from '../../../src/core/anti-laziness';
import { detection } from '../../../src/core/detections';
import { LoopMachine } from '../../../src/core/loop-machine';
import { buildPrompt } from '../../../src/core/prompt';
import { askingText, detectQuestion, questionDetails } from '../../../src/core/questions';

describe('detectQuestion', () => {
  it('reads a <question> block with its options', () => {
    const q = detectQuestion(
      'I looked at the API.\n<question>\nKeep the v1 endpoint or replace it with v2?\n- keep v1 and add v2\n- replace v1 with v2\n</question>\n',
    );
    expect(q).toEqual({
      text: 'Keep the v1 endpoint or replace it with v2?',
      options: ['keep v1 and add v2', 'replace v1 with v2'],
      via: 'question_block',
    });
  });

  it('reads numbered options and takes the last block', () => {
    const q = detectQuestion('<question>old</question>\n<question>Which one?\nOptions:\n1. A\n2) B</question>');
    expect(q).toMatchObject({ text: 'Which one?', options: ['A', 'B'] });
  });

  it('reads a ralph-claude-code status block with STATUS: BLOCKED and its recommendation', () => {
    const answer = [
      'Done what I could.',
      '---RALPH_STATUS---',
      'STATUS: BLOCKED',
      'EXIT_SIGNAL: false',
      'RECOMMENDATION: The spec says sum returns a string but the test expects a number: which is right?',
      '---END_RALPH_STATUS---',
    ].join('\n');
    expect(detectQuestion(answer)).toEqual({
      text: 'The spec says sum returns a string but the test expects a number: which is right?',
      options: [],
      via: 'status_blocked',
    });
  });

  it('asks nothing without a block, with an empty block, or with BLOCKED and no reason', () => {
    expect(detectQuestion('STATUS: IN_PROGRESS\nRECOMMENDATION: continue')).toBeUndefined();
    expect(detectQuestion('<question>  </question>')).toBeUndefined();
    expect(detectQuestion('STATUS: BLOCKED\nEXIT_SIGNAL: false')).toBeUndefined();
    expect(detectQuestion('I have a question about this, but I will decide myself.')).toBeUndefined();
  });
});

describe('the prompt about questions', () => {
  const base = { task: 'do it', loopId: 'l', iteration: 2, maxIterations: 5, feedback: [] };

  it('tells the agent how to ask, what for, and how many are left', () => {
    const p = buildPrompt({ ...base, questions: { max: 3, left: 2 } });
    expect(p).toContain('<question>your question</question>');
    expect(p).toContain('not yours to make');
    expect(p).toContain('Questions left: 2 of 3.');
  });

  it('says the block is read as text once the questions are used up, and nothing when asking is off', () => {
    expect(askingText({ max: 2, left: 0 })).toMatch(/asked all 2 questions.*ordinary text/);
    expect(buildPrompt({ ...base, questions: { max: 0, left: 0 } })).not.toContain('<question>');
    expect(buildPrompt(base)).not.toContain('<question>');
  });

  it('puts the answer under "Answer from <by>" with the question', () => {
    const p = buildPrompt({ ...base, answer: { by: 'alice', question: 'v1 or v2?', text: 'Keep v1.' } });
    expect(p).toContain('## Answer from alice');
    expect(p).toContain('> v1 or v2?');
    expect(p).toContain('Keep v1.');
  });

  it('the gate details show the question, the options and the diff', () => {
    const d = questionDetails({
      text: 'v1 or v2?',
      options: ['v1', 'v2'],
      source: 'agent',
      diff: 'Diff: 1 added',
      left: 2,
    });
    expect(d).toContain('The agent asks:\n  v1 or v2?');
    expect(d).toContain('  1. v1\n  2. v2');
    expect(d).toContain('Diff: 1 added');
  });
});

describe('LoopMachine at a question gate', () => {
  const T = '2026-11-22T10:00:00.000Z';
  const open = (): LoopMachine => {
    const m = new LoopMachine(
      {
        loopId: 'l',
        maxIterations: 1,
        agent: 'a',
        workspace: '/w',
        stateDir: '/s',
        defaultExtraIterations: 3,
        labels: {},
      },
      T,
    );
    m.state.iteration = 1;
    const gate = m.openGate(
      {
        reason: 'question',
        title: 'The agent asks',
        details: '',
        options: ['answer', 'approve', 'reject', 'abort'],
        question: { text: 'v1 or v2?', options: [], source: 'agent', diff: '' },
      },
      T,
    );
    m.recordQuestion({ gateId: gate.id, iteration: 1, source: 'agent', text: 'v1 or v2?', options: [] }, 3, T);
    return m;
  };

  it('takes an answer: the answer waits for the next prompt, the question is logged, the budget allows one more', () => {
    const m = open();
    expect(m.questionsLeft(3)).toBe(2);
    const r = m.applySignal('answer', { text: 'Keep v1.', by: 'alice', requestId: 'r1' }, '2026-11-22T10:05:00.000Z');
    expect(r).toEqual({ applied: true, note: 'answer applied to gate question@1' });
    expect(m.pendingDecision).toMatchObject({ decision: 'answer', text: 'Keep v1.', by: 'alice' });
    expect(m.promptInputs().answer).toEqual({ by: 'alice', question: 'v1 or v2?', text: 'Keep v1.' });
    expect(m.state.maxIterations).toBe(2);
    expect(m.state.questions).toMatchObject({ max: 3, asked: 1, answered: 1 });
    expect(m.state.questions!.log[0]).toMatchObject({ decision: 'answer', by: 'alice', waitMs: 300_000 });
  });

  it('refuses an answer without text, and an answer at a gate that is not a question', () => {
    const m = open();
    expect(m.applySignal('answer', { by: 'bob' }, T)).toMatchObject({
      applied: false,
      note: expect.stringMatching(/needs text/),
    });
    expect(m.state.pendingGate).toBeDefined();
    m.applySignal('abort', {}, T);
    m.openGate({ reason: 'max_iterations', title: 't', details: '', options: ['approve', 'reject', 'abort'] }, T);
    expect(m.applySignal('answer', { text: 'x' }, T)).toMatchObject({
      applied: false,
      note: expect.stringMatching(/does not offer answer/),
    });
  });

  it('a plain string payload is the answer (temporal workflow signal --input \'"text"\')', () => {
    const m = open();
    expect(m.applySignal('answer', 'Keep v1.', T).applied).toBe(true);
    expect(m.promptInputs().answer?.text).toBe('Keep v1.');
  });
});

describe('the anti-laziness layer and questions', () => {
  const idle = (n: number, question?: boolean): IterationFindings => ({
    n,
    now: `2026-01-15T12:0${n}:00.000Z`,
    claimed: false,
    verified: false,
    exitCode: 0,
    changes: { added: 0, modified: 0, deleted: 0, files: [] },
    detections: [detection('no_files_written', 'warning', 'the agent wrote no file')],
    hallucinated: 0,
    deletedTests: [],
    diffSig: 'same',
    stateSig: 'same',
    outputSig: 'same',
    errorText: 'same error',
    taskChars: 100,
    question,
  });

  it('a question iteration counts toward neither the stuck loop, the no-files count nor the circuit breaker', () => {
    const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'l', 'a');
    const types = [1, 2, 3, 4, 5, 6].flatMap((n) => t.afterIteration(idle(n, true)).types);
    expect(types).toEqual([]);
    expect(t.state.fingerprints).toEqual([]);
    expect(t.state.profile.noFilesIterations).toEqual([]);
  });

  it('still sees what a question iteration changed in the workspace (a deleted test escalates)', () => {
    const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'l', 'a');
    const f = idle(1, true);
    f.detections = [detection('test_deletion', 'critical', 'deleted test "adds"')];
    const d = t.afterIteration(f);
    expect(d.types).toEqual(['test_deletion']);
    expect(d.escalate?.reason).toBe('regression');
  });

  it("PDARE's ask_clarification gives the question to put to a human", () => {
    const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'l', 'a');
    const f = idle(1);
    f.detections = [detection('feature_removal', 'warning', 'removed the export "legacySum"')];
    const d = t.afterIteration(f);
    expect(d.escalate).toBeUndefined();
    expect(d.clarify).toMatch(/goal is unclear \(specification_ambiguity/);
    expect(d.clarify).toContain('feature_removal');
  });
});

describe('questions.max', () => {
  const raw = { prompt: 'p', workspace: '/w', agent: { adapter: 'claude-code' }, completion: { promise: 'DONE' } };
  it('defaults to 3, takes 0 (off), and names the field and the fix when bad', () => {
    expect(parseLoopInput(raw).questions).toEqual({ max: 3 });
    expect(parseLoopInput({ ...raw, questions: { max: 0 } }).questions).toEqual({ max: 0 });
    expect(() => parseLoopInput({ ...raw, questions: { max: -1 } })).toThrow(
      /input\.questions\.max: must be 0 or more/,
    );
    expect(() => parseLoopInput({ ...raw, questions: { max: 1.5 } })).toThrow(/questions\.max: must be a whole number/);
  });
});

describe('ralph status at a question gate', () => {
  it('lists `ralph answer` first among the commands that answer it', () => {
    const gate = {
      id: 'question@2',
      reason: 'question',
      title: 'The agent asks (iteration 2): v1 or v2?',
      details: 'The agent asks:\n  v1 or v2?',
      options: ['answer', 'approve', 'reject', 'abort'] as const,
      iteration: 2,
      openedAt: '2026-11-22T10:00:00.000Z',
    };
    const lines = gateLines('loop-1', { ...gate, options: [...gate.options] });
    expect(lines[0]).toBe('human gate question@2 (question): The agent asks (iteration 2): v1 or v2?');
    expect(lines).toContain('    ralph answer loop-1 "your answer"');
    expect(lines.indexOf('    ralph answer loop-1 "your answer"')).toBeLessThan(
      lines.indexOf('    ralph approve loop-1'),
    );
  });
});
