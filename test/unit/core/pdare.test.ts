import { detection } from '../../../src/core/detections';
import { AntiLazinessTracker } from '../../../src/core/anti-laziness';
import { defaultAntiLazinessConfig } from '../../../src/config/anti-laziness-config';
import { adaptText, diagnose, shouldEscalate, strategyFor, withoutAsking } from '../../../src/core/pdare';
import { buildPrompt } from '../../../src/core/prompt';
import { tamperedVerificationDetection } from '../../../src/core/verification/messages';
import type { Diagnosis, IterationFingerprint } from '../../../src/core/anti-laziness-types';

const ctx = (o: Partial<Parameters<typeof diagnose>[1]> = {}): Parameters<typeof diagnose>[1] => ({
  iteration: 5,
  fingerprints: [],
  trajectory: [],
  retries: 0,
  taskChars: 500,
  ...o,
});
const fp = (n: number, o: Partial<IterationFingerprint> = {}): IterationFingerprint => ({ n, changed: 1, ...o });

describe('diagnose', () => {
  it('diagnoses reward hacking with high confidence when tests were deleted', () => {
    const d = diagnose([detection('test_deletion', 'critical', '2 tests deleted: a; b')], ctx());
    expect(d.cause).toBe('reward_hacking');
    expect(d.confidence).toBeGreaterThanOrEqual(0.9);
    expect(d.evidence[0]).toMatch(/^test_deletion \(critical\): 2 tests deleted/);
  });

  it.each(['skip_added', 'ci_bypass', 'assertion_weakened', 'coverage_threshold_lowered', 'test_ignore_added'])(
    'diagnoses reward hacking when the critical bypass %s is found',
    (type) => {
      const d = diagnose([detection(type, 'critical', 'x')], ctx());
      expect(d).toMatchObject({ cause: 'reward_hacking' });
      expect(d.confidence).toBeGreaterThanOrEqual(0.9);
    },
  );

  it('diagnoses the tampering verification finds as reward hacking (block and escalate, as seed 001 says)', () => {
    const tampered = tamperedVerificationDetection({
      passed: false,
      ran: true,
      protectedChanges: [{ path: 'test/sum.test.js', change: 'modified', kind: 'test' }],
      failure: {
        runner: 'node-assert',
        headline: 'AssertionError [ERR_ASSERTION]: sum(1,5) should be 6 / 5 !== 6',
        excerpt: 'AssertionError [ERR_ASSERTION]: sum(1,5) should be 6',
      },
    });
    const d = diagnose([tampered], ctx());
    expect(d.cause).toBe('reward_hacking');
    expect(d.confidence).toBeGreaterThanOrEqual(0.9);
    expect(d.evidence[0]).toContain('tampered_verification (critical)');
    expect(strategyFor(d)).toBe('block');
    expect(shouldEscalate([tampered], 0, { maxRetries: 3, escalateOnCritical: true }).escalate).toBe(true);
  });

  it.each(['special_cased_test_input', 'test_only_switch', 'mock_of_subject'])(
    'diagnoses the unchecked cheat %s as reward hacking',
    (type) => expect(diagnose([detection(type, 'critical', 'x')], ctx()).cause).toBe('reward_hacking'),
  );

  it('gives reward hacking less confidence when only warnings (ts suppression) were found', () => {
    const d = diagnose([detection('ts_suppression', 'warning', 'x')], ctx());
    expect(d.cause).toBe('reward_hacking');
    expect(d.confidence).toBeLessThan(0.9);
  });

  it('prefers reward hacking over everything else it co-occurs with', () => {
    const d = diagnose(
      [detection('stuck_loop', 'critical', 'same error 3 times'), detection('skip_added', 'critical', 'x')],
      ctx({ fingerprints: [fp(3, { errorSig: 'e' }), fp(4, { errorSig: 'e' }), fp(5, { errorSig: 'e' })] }),
    );
    expect(d.cause).toBe('reward_hacking');
  });

  it('diagnoses task complexity for a stuck loop with the same error, naming the iterations', () => {
    const d = diagnose(
      [detection('stuck_loop', 'critical', 'same error 3 times')],
      ctx({
        fingerprints: [
          fp(2, { errorSig: 'x' }),
          fp(3, { errorSig: 'e', error: 'TypeError at 42' }),
          fp(4, { errorSig: 'e', error: 'TypeError at 42' }),
          fp(5, { errorSig: 'e', error: 'TypeError at 42' }),
        ],
      }),
    );
    expect(d.cause).toBe('task_complexity');
    expect(d.confidence).toBe(0.85);
    expect(d.evidence).toContain('same error in iterations 3, 4, 5: TypeError at 42');
  });

  it('diagnoses task complexity for A-B-A-B oscillation', () => {
    const d = diagnose(
      [detection('stuck_loop', 'critical', 'oscillation')],
      ctx({
        fingerprints: [
          fp(2, { stateSig: 'a' }),
          fp(3, { stateSig: 'b' }),
          fp(4, { stateSig: 'a' }),
          fp(5, { stateSig: 'b' }),
        ],
      }),
    );
    expect(d).toMatchObject({ cause: 'task_complexity', confidence: 0.75 });
    expect(d.evidence.join('\n')).toMatch(/oscillates between two states over iterations 2, 3, 4, 5/);
  });

  it('diagnoses cognitive load with more confidence when no-files iterations repeat', () => {
    const once = diagnose([detection('no_files_written', 'warning', 'nothing')], ctx());
    const again = diagnose(
      [detection('no_files_written', 'warning', 'nothing'), detection('false_completion', 'critical', 'claimed')],
      ctx({ fingerprints: [fp(3, { changed: 0 }), fp(4, { changed: 2 })] }),
    );
    expect(once).toMatchObject({ cause: 'cognitive_load', confidence: 0.5 });
    expect(again).toMatchObject({ cause: 'cognitive_load', confidence: 0.75 });
    expect(again.evidence).toContain('no files changed before in iterations 3');
  });

  it('diagnoses cognitive load for a long task with low quality', () => {
    const d = diagnose([], ctx({ taskChars: 9000, trajectory: [{ n: 5, quality: 40, verified: false }] }));
    expect(d).toMatchObject({ cause: 'cognitive_load', confidence: 0.6 });
    expect(d.evidence[0]).toMatch(/long task \(9000 chars > 4000\) with low quality 40%/);
  });

  it('diagnoses specification ambiguity on a low-quality plateau or a feature removal', () => {
    const plateau = diagnose(
      [detection('quality_plateau', 'warning', 'deltas 1, 2, 0')],
      ctx({ trajectory: [{ n: 5, quality: 50, verified: false }] }),
    );
    expect(plateau).toMatchObject({ cause: 'specification_ambiguity', confidence: 0.65 });
    const removal = diagnose([detection('feature_removal', 'warning', 'export foo removed')], ctx());
    expect(removal).toMatchObject({ cause: 'specification_ambiguity', confidence: 0.6 });
  });

  it('ignores a plateau at high quality', () => {
    const d = diagnose(
      [detection('quality_plateau', 'warning', 'flat')],
      ctx({ trajectory: [{ n: 5, quality: 90, verified: false }] }),
    );
    expect(d).toMatchObject({ cause: 'specification_ambiguity', confidence: 0.3 });
  });

  it('calls equally likely different causes conflicting signals', () => {
    const d = diagnose(
      [detection('no_files_written', 'warning', 'nothing')],
      ctx({ fingerprints: [fp(4, { errorSig: 'e' }), fp(5, { errorSig: 'e' })] }),
    );
    expect(d.cause).toBe('specification_ambiguity');
    expect(d.confidence).toBe(0.4);
    expect(d.evidence[0]).toMatch(/^conflicting signals: /);
  });

  it('ignores PASS detections', () => {
    expect(diagnose([detection('test_inventory', 'info', 'no test deleted')], ctx())).toMatchObject({
      cause: 'specification_ambiguity',
      confidence: 0.3,
    });
  });

  it('keeps confidence within 0..1 with 2 decimals', () => {
    const d = diagnose(
      ['test_deletion', 'skip_added', 'ci_bypass', 'strict_disabled', 'test_ignore_added'].map((t) =>
        detection(t, 'critical', 'x'),
      ),
      ctx(),
    );
    expect(d.confidence).toBeLessThanOrEqual(1);
    expect(d.confidence).toBe(Math.round(d.confidence * 100) / 100);
  });
});

describe('strategyFor', () => {
  it.each([
    ['cognitive_load', 'decompose'],
    ['task_complexity', 'simpler_approach'],
    ['specification_ambiguity', 'ask_clarification'],
    ['reward_hacking', 'block'],
  ] as const)('maps %s to %s', (cause, strategy) => {
    expect(strategyFor({ cause, confidence: 0.5, evidence: [] })).toBe(strategy);
  });
});

describe('adaptText', () => {
  const d: Diagnosis = { cause: 'cognitive_load', confidence: 0.75, evidence: ['no_files_written at iteration 4'] };

  it('asks to decompose and do step 1 fully first, with the diagnosis', () => {
    const t = adaptText('decompose', d);
    expect(t.startsWith('## Recovery: decompose the task')).toBe(true);
    expect(t).toContain('Do step 1 fully');
    expect(t).toContain('confidence 75%');
    expect(t).toContain('- no_files_written at iteration 4');
  });

  it('asks for assumptions or a <question> block when clarifying', () => {
    const t = adaptText('ask_clarification', { ...d, cause: 'specification_ambiguity' });
    expect(t).toContain('`## Assumptions`');
    expect(t).toContain('most literal reading');
    expect(t).toContain('`<question>your question</question>`');
  });

  it('does not invite a question when asking is off or no question is left', () => {
    const t = adaptText('ask_clarification', { ...d, cause: 'specification_ambiguity' }, { canAsk: false });
    expect(t).toContain('`## Assumptions`');
    expect(t).not.toContain('<question>your question</question>');
    expect(t).toContain('No human will answer a question in this loop');
    // Other strategies are unchanged.
    expect(adaptText('decompose', d, { canAsk: false })).toBe(adaptText('decompose', d));
  });

  it('leaves the adapted section out of the prompt with questions.max 0 and no questions left', () => {
    const tracker = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'loop-1', 'claude-code');
    const section = adaptText('ask_clarification', { ...d, cause: 'specification_ambiguity' });
    const prompt = (canAsk: boolean, questions: { max: number; left: number }): string => {
      tracker.state.adapt = section;
      const { sections } = tracker.beforeIteration(3, { canAsk });
      return buildPrompt({ task: 't', loopId: 'l', iteration: 3, maxIterations: 5, feedback: [], sections, questions });
    };
    for (const [max, left] of [
      [0, 0],
      [3, 0],
    ]) {
      const p = prompt(false, { max, left });
      expect(p).toContain('## Recovery: clarify the requirement');
      expect(p).not.toContain('<question>your question</question>');
    }
    // With a question left, the adapted section and the "how to finish" both say how to ask.
    expect(prompt(true, { max: 3, left: 2 })).toContain(section);
    expect(withoutAsking(section)).not.toBe(section);
  });

  it('asks for a different, simpler approach', () => {
    expect(adaptText('simpler_approach', { ...d, cause: 'task_complexity' })).toMatch(/different, simpler approach/);
  });

  it('explains a blocked change must be undone by fixing the code', () => {
    const t = adaptText('block', { ...d, cause: 'reward_hacking' });
    expect(t).toContain('## Recovery: change blocked');
    expect(t).toMatch(/was BLOCKED/);
    expect(t).toMatch(/Restore every deleted, skipped or weakened test/);
  });
});

describe('shouldEscalate', () => {
  const cfg = { maxRetries: 3, escalateOnCritical: true };

  it('escalates at once on a critical finding, naming its types', () => {
    expect(
      shouldEscalate([detection('test_deletion', 'critical', 'x'), detection('any_added', 'warning', 'y')], 0, cfg),
    ).toEqual({ escalate: true, why: 'critical: test_deletion' });
  });

  it('does not escalate critical findings when escalateOnCritical is off', () => {
    expect(
      shouldEscalate([detection('test_deletion', 'critical', 'x')], 0, { ...cfg, escalateOnCritical: false }),
    ).toEqual({ escalate: false, why: 'retry 1 of 3' });
  });

  it('escalates when the retries are used up', () => {
    expect(shouldEscalate([detection('no_files_written', 'warning', 'x')], 3, cfg)).toEqual({
      escalate: true,
      why: '3 recovery retries exhausted',
    });
  });

  it('retries otherwise', () => {
    expect(shouldEscalate([detection('no_files_written', 'warning', 'x')], 1, cfg)).toEqual({
      escalate: false,
      why: 'retry 2 of 3',
    });
  });
});
