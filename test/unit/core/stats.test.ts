import { emptyTotals, type IterationRecord, type LoopState } from '../../../src/core/loop-types';
import { emptyAntiLazinessState } from '../../../src/core/anti-laziness';
import { checkTarget, gateStats, parseSince, SEED_TARGETS, type LoopFacts } from '../../../src/core/stats';
import { statsExposition } from '../../../src/telemetry/metrics';

type Gate = NonNullable<IterationRecord['gates']>[number];
const gate = (name: string, passed: boolean, actual = passed ? '0 errors' : '3 errors'): Gate => ({
  name,
  passed,
  actual,
  durationMs: 1000,
});

const rec = (n: number, o: Partial<IterationRecord> = {}): IterationRecord => ({
  n,
  startedAt: '',
  durationMs: 10_000,
  agent: { exitCode: 0, durationMs: 9000, claimed: true, outputBytes: 1, claimedFiles: 1, attempts: 1 },
  outcome: 'continue',
  artifactDir: '',
  ...o,
});

let seq = 0;
/** A loop whose claims were rejected `rejections` times before its gates passed. */
function loop(rejections: number, o: Partial<LoopState> = {}, kinds: Record<string, string> = {}): LoopState {
  const records = [
    ...Array.from({ length: rejections }, (_, i) =>
      rec(i + 1, { outcome: 'claim_rejected', rejected: true, gates: [gate('lint', false), gate('unit', true)] }),
    ),
    rec(rejections + 1, { outcome: 'completed', gates: [gate('lint', true), gate('unit', true)] }),
  ];
  const runs = records.length;
  return {
    loopId: `l${++seq}`,
    status: 'accepted',
    phase: 'done',
    iteration: runs,
    maxIterations: 10,
    agent: 'scripted',
    workspace: '/ws',
    stateDir: '/ws/.ralph',
    paused: false,
    records,
    decisions: [],
    signals: [],
    // 9 s of agent per iteration, 2 gates of 1 s each: gate time is 2 / 11 of the work.
    totals: { ...emptyTotals(), iterations: runs, rejections, agentMs: 9000 * runs, gateMs: 2000 * runs },
    gateStats: {
      lint: { runs, passed: 1, ms: 1000 * runs, kind: kinds.lint ?? 'lint' },
      unit: { runs, passed: runs, ms: 1000 * runs, kind: 'test' },
    },
    pendingFeedback: [],
    run: 0,
    startedAt: '',
    updatedAt: '',
    labels: {},
    result: {
      loopId: '',
      status: 'accepted',
      reason: '',
      iterations: runs,
      totals: emptyTotals(),
      stateFile: '',
    },
    ...o,
  };
}

const target = (st: ReturnType<typeof gateStats>, key: string) => st.targets.find((t) => t.key === key)!;

describe('gateStats', () => {
  it('puts each figure beside its seed target with met / missed, on loops with known outcomes', () => {
    // 10 loops: 8 pass at once, 1 rejected once, 1 rejected three times then escalated by the rejections gate.
    const loops: LoopState[] = [
      ...Array.from({ length: 8 }, () => loop(0)),
      loop(1),
      loop(3, {
        decisions: [{ gateId: 'rejections@3', decision: 'approve', at: '' }],
        totals: { ...loop(3).totals, humanGates: 1 },
      }),
    ];
    const st = gateStats(loops);
    expect(st).toMatchObject({ loops: 10, loopsWithGates: 10, iterations: 8 + 2 + 4 });
    expect(st.firstTryPassRate).toBe(0.8);
    expect(st.rejectionsPerLoop).toBe(0.4);
    expect(st.escalationRate).toBe(0.1);
    expect(st.gateOverheadShare).toBe(0.182);
    expect(st.falsePositiveRate).toBe(0);
    expect(st.falseNegativeRate).toBe(0);
    expect(st.targets.map((t) => [t.key, t.met])).toEqual([
      // > 80 %: exactly 80 % is missed.
      ['firstTryPassRate', false],
      ['rejectionsPerLoop', true],
      ['escalationRate', false],
      ['gateOverheadShare', false],
      ['falsePositiveRate', true],
      ['falseNegativeRate', true],
    ]);
    expect(st.targets.map((t) => [t.label, t.op, t.value])).toEqual([
      ['first-try pass rate', '>', 0.8],
      ['rejections per task', '<', 2],
      ['escalation rate', '<', 0.05],
      ['gate overhead', '<', 0.1],
      ['false positives', '<', 0.01],
      ['false negatives', '<=', 0],
    ]);
    expect(st.rejections).toEqual({
      notRejected: { count: 8, share: 0.8 },
      once: { count: 1, share: 0.1 },
      twice: { count: 0, share: 0 },
      threeOrMore: { count: 0, share: 0 },
      escalated: { count: 1, share: 0.1 },
    });
    expect(st.humanGates).toEqual({ rejections: 1 });
  });

  it('ranks failure reasons by category (gate kind, check, agent) with their share', () => {
    const a = loop(2);
    a.records.push(
      rec(4, { outcome: 'continue', check: { passed: false, exitCode: 1, durationMs: 5 } }),
      rec(5, { outcome: 'agent_timeout', agent: { ...rec(5).agent, timedOut: true } }),
    );
    const b = loop(1, {}, { lint: 'typecheck' });
    const st = gateStats([a, b]);
    expect(st.failureCategories).toEqual([
      { category: 'linting errors', count: 2, share: 0.4 },
      { category: 'agent timeouts', count: 1, share: 0.2 },
      { category: 'completion check failed', count: 1, share: 0.2 },
      { category: 'type errors', count: 1, share: 0.2 },
    ]);
    expect(st.topFailureReasons).toEqual([{ reason: 'lint: N errors', count: 3, share: 1 }]);
    // A gate recorded before kinds were kept is named instead.
    const old = loop(1);
    delete old.gateStats!.lint.kind;
    expect(gateStats([old]).failureCategories).toEqual([{ category: 'gate lint failing', count: 1, share: 1 }]);
  });

  it('counts a human approval of a detector gate as a false positive, not one of a policy gate', () => {
    const approvedRegression = loop(0, {
      decisions: [{ gateId: 'regression@2', decision: 'approve', at: '' }],
      totals: { ...loop(0).totals, humanGates: 1 },
    });
    const rejectedStuck = loop(0, { decisions: [{ gateId: 'stuck_loop@4', decision: 'reject', at: '' }] });
    const approvedBudget = loop(0, { decisions: [{ gateId: 'budget@3', decision: 'approve', at: '' }] });
    const pendingTamper = loop(0, {
      status: 'awaiting_human',
      result: undefined,
      pendingGate: {
        id: 'tampered_verification@5',
        reason: 'tampered_verification',
        title: '',
        details: '',
        options: ['approve', 'reject', 'abort'],
        iteration: 5,
        openedAt: '',
      },
    });
    const st = gateStats([approvedRegression, rejectedStuck, approvedBudget, pendingTamper]);
    expect(st.falsePositives).toEqual({
      detectorGates: 3,
      decided: 2,
      approved: 1,
      loops: [approvedRegression.loopId],
    });
    expect(st.falsePositiveRate).toBe(0.25);
    expect(target(st, 'falsePositiveRate').met).toBe(false);
    expect(st.escalationRate).toBe(1);
    expect(st.humanGates).toEqual({ regression: 1, stuck_loop: 1, budget: 1, tampered_verification: 1 });
  });

  it('counts accepted loops a human flagged as false negatives, and says which could not be checked', () => {
    const ok = loop(0);
    const flagged = loop(0);
    const elsewhere = loop(0);
    const aborted = loop(0, { status: 'aborted', result: { ...loop(0).result!, status: 'aborted' } });
    const flag = { loopId: flagged.loopId, reason: 'deleted a test in review', by: 'lead', at: '2026-11-25T08:00:00Z' };
    const facts: LoopFacts[] = [
      { state: ok, flags: [] },
      { state: flagged, flags: [flag] },
      { state: elsewhere },
      // A flag on a loop that was not accepted is not a false negative.
      { state: aborted, flags: [{ ...flag, loopId: aborted.loopId }] },
    ];
    const st = gateStats(facts);
    expect(st.falseNegatives).toEqual({
      accepted: 3,
      flagged: [flagged.loopId],
      flags: [flag],
      unreadable: [elsewhere.loopId],
    });
    expect(st.falseNegativeRate).toBe(0.333);
    expect(target(st, 'falseNegativeRate')).toMatchObject({ met: false, over: 3 });
    expect(gateStats([{ state: ok, flags: [] }]).targets.find((t) => t.key === 'falseNegativeRate')!.met).toBe(true);
  });

  it('counts interventions by type and severity, per 100 iterations, and how often the next iteration fixed them', () => {
    const p = emptyAntiLazinessState('scripted');
    p.counts = { no_files_written: 2, false_completion: 1, test_deletion: 1 };
    p.severities = { warning: 3, critical: 1 };
    const a = loop(0, { persistence: p });
    a.totals.iterations = 8;
    a.records = [
      rec(1, { detections: ['no_files_written'] }),
      rec(2, { detections: ['no_files_written', 'false_completion'] }),
      rec(3, { detections: ['test_deletion'] }),
      rec(4, {}),
      rec(5, { detections: ['no_files_written'] }),
    ];
    // A state recorded before severities were counted: its recent events say what is known.
    const q = emptyAntiLazinessState('scripted');
    q.counts = { stuck_loop: 1 };
    q.recent = [
      {
        id: '2:stuck_loop:1',
        loopId: 'x',
        iteration: 2,
        timestamp: '',
        agent: 'scripted',
        type: 'stuck_loop',
        severity: 'critical',
        verdict: 'BLOCK',
        details: '',
        evidence: [],
      },
    ];
    const b = loop(1, { persistence: q });
    b.totals.iterations = 2;
    const st = gateStats([a, b, loop(0)]);
    expect(st.interventions).toEqual({
      total: 5,
      byType: { no_files_written: 2, false_completion: 1, test_deletion: 1, stuck_loop: 1 },
      bySeverity: { warning: 3, critical: 2 },
      // 5 interventions over the 10 iterations of the loops with the layer on.
      per100Iterations: 50,
      // Iteration 1's finding came back at 2 (not fixed); 2's were gone at 3; 3's gone at 4; 5 has no next.
      remediation: { judged: 3, remediated: 2, rate: 0.667 },
    });
  });

  it('has no verdict on a target no loop measured, and nothing to divide by zero', () => {
    const st = gateStats([]);
    expect(st.targets.every((t) => t.met === undefined && t.figure === 0 && t.over === 0)).toBe(true);
    expect(st.interventions.per100Iterations).toBe(0);
    expect(checkTarget({ op: '<=', value: 0 }, { figure: 0, over: 1 })).toBe(true);
    expect(checkTarget({ op: '>', value: 0.8 }, { figure: 0.81, over: 1 })).toBe(true);
    expect(SEED_TARGETS).toHaveLength(6);
  });
});

describe('parseSince', () => {
  const now = Date.parse('2026-11-25T08:00:00Z');
  it.each([
    ['7d', '2026-11-18T08:00:00.000Z'],
    ['24h', '2026-11-24T08:00:00.000Z'],
    ['30m', '2026-11-25T07:30:00.000Z'],
    ['2w', '2026-11-11T08:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseSince(text, now)).toBe(iso);
  });
  it.each(['7', 'd7', 'seven days', '7y', '2026-13-45'])('refuses %s', (text) => {
    expect(parseSince(text, now)).toBeUndefined();
  });
});

describe('statsExposition', () => {
  it('prints the figures, their targets and met as Prometheus gauges', async () => {
    const st = gateStats([loop(0), loop(1)]);
    const text = await statsExposition(st);
    expect(text).toContain('ralph_stats_figure{figure="firstTryPassRate"} 0.5');
    expect(text).toContain('ralph_stats_target{figure="firstTryPassRate",op=">"} 0.8');
    expect(text).toContain('ralph_stats_target_met{figure="firstTryPassRate"} 0');
    expect(text).toContain('ralph_stats_target_met{figure="rejectionsPerLoop"} 1');
    expect(text).toContain('ralph_stats_loops_by_rejections{rejected="1"} 1');
    expect(text).toContain('ralph_stats_failure_share{category="linting errors"} 1');
    expect(text).toContain('ralph_stats_loops 2');
  });
});
