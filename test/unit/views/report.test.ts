import { emptyTotals, type LoopState } from '../../../src/core/loop-types';
import type { InterventionEvent, AntiLazinessState } from '../../../src/core/anti-laziness-types';
import { analytics } from '../../../src/core/report';
import {
  antiLazinessSummary,
  interventionsView,
  profileView,
  qualityBars,
  regressionsView,
  renderReport,
} from '../../../src/views/report';

const event = (iteration: number, type: string, severity: 'info' | 'warning' | 'critical', details: string) =>
  ({
    id: `${iteration}:${type}:0`,
    loopId: 'ralph-fix-1',
    iteration,
    timestamp: '2026-01-01T00:00:00Z',
    agent: 'claude-code',
    type,
    severity,
    verdict: severity === 'critical' ? 'BLOCK' : severity === 'warning' ? 'WARN' : 'PASS',
    details,
    evidence: [],
  }) as InterventionEvent;

const events: InterventionEvent[] = [
  event(2, 'no_files_written', 'warning', 'exit 0 but no file changed'),
  event(3, 'test_inventory', 'info', 'No test deleted'),
  event(7, 'test_deletion', 'critical', '2 tests deleted | login tests'),
];

function persistence(): AntiLazinessState {
  return {
    level: 'AGGRESSIVE',
    levelReason: 'iteration 7 (≥5)',
    levelHistory: [
      { iteration: 3, from: 'MINIMAL', to: 'STANDARD', reason: 'iteration 3 (≥3)' },
      { iteration: 5, from: 'STANDARD', to: 'AGGRESSIVE', reason: 'iteration 5 (≥5)' },
    ],
    baseline: { tests: 150, coverage: { covered: 850, total: 1000, pct: 85 }, iteration: 1 },
    current: { tests: 148, coverage: { covered: 840, total: 1000, pct: 84 }, iteration: 7 },
    counts: { no_files_written: 1, test_deletion: 1 },
    recent: [],
    regressions: [
      {
        id: 'reg-001',
        iteration: 7,
        types: ['test_deletion'],
        severity: 'critical',
        verdict: 'BLOCK',
        summary: '2 tests deleted (150 → 148 tests)',
        deletedTests: ['test/login.test.ts: validates email', 'test/login.test.ts: rejects weak passwords'],
        recovery: 'rolled_back',
        rollbackTo: 'iter-007-pre',
      },
    ],
    recovery: {
      attempts: 1,
      retries: 0,
      inProgress: false,
      history: [
        {
          iteration: 7,
          trigger: ['test_deletion'],
          diagnosis: { cause: 'reward_hacking', confidence: 0.95, evidence: ['test_deletion'] },
          strategy: 'block',
          retry: 0,
          outcome: 'rolled_back',
          at: '2026-01-01T00:10:00Z',
        },
      ],
    },
    fingerprints: [],
    trajectory: [60, 85, 83, 81, 79, 77, 70].map((quality, i) => ({
      n: i + 1,
      quality,
      verified: i === 1,
      checkpoint: `iter-00${i + 1}-post`,
      ...(i === 6 ? { regression: true } : {}),
    })),
    best: {
      iteration: 2,
      quality: 85,
      verified: true,
      checkpoint: 'iter-002-post',
      reason: 'best quality 85% at iteration 2 (verified), not final (iteration 7: 70%)',
      restoredTo: 'worktree',
    },
    profile: {
      agent: 'claude-code',
      iterations: 7,
      noFilesCount: 1,
      falseCompletions: 0,
      hallucinatedFiles: 0,
      filesChanged: 14,
      filesPerIteration: 2,
      detections: { no_files_written: 1, test_deletion: 1 },
      noFilesIterations: [2],
    },
    circuitOpen: false,
  };
}

function loopState(o: Partial<LoopState> = {}): LoopState {
  return {
    loopId: 'ralph-fix-1',
    status: 'accepted',
    phase: 'done',
    iteration: 7,
    maxIterations: 10,
    agent: 'claude-code',
    workspace: '/ws',
    stateDir: '/ws/.ralph',
    paused: false,
    records: [],
    decisions: [],
    signals: [],
    totals: { ...emptyTotals(), iterations: 7, inputTokens: 1000, outputTokens: 500, costUsd: 0.42, agentMs: 80_000 },
    pendingFeedback: [],
    run: 0,
    startedAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:12:30Z',
    labels: {},
    persistence: persistence(),
    result: {
      loopId: 'ralph-fix-1',
      status: 'accepted',
      acceptedBy: 'check',
      reason: 'completion check passed',
      iterations: 7,
      totals: emptyTotals(),
      stateFile: '/ws/.ralph/loops/ralph-fix-1/state.json',
    },
    ...o,
  };
}

describe('qualityBars', () => {
  it('draws one 40-wide bar per iteration and marks BEST, ✓ and REGRESSION', () => {
    const p = persistence();
    const lines = qualityBars(p.trajectory, p.best);
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe(`iter  2 ${'█'.repeat(34)}${'░'.repeat(6)}  85% ✓ BEST`);
    expect(lines[0]).toBe(`iter  1 ${'█'.repeat(24)}${'░'.repeat(16)}  60%`);
    expect(lines[2]).not.toContain('REGRESSION');
    expect(lines[6].endsWith(' 70% REGRESSION')).toBe(true);
  });

  it('marks a drop of 5 points or more as a regression', () => {
    const lines = qualityBars(
      [
        { n: 1, quality: 90, verified: false },
        { n: 2, quality: 85, verified: false },
        { n: 3, quality: 81, verified: false },
      ],
      undefined,
      10,
    );
    expect(lines).toEqual(['iter  1 █████████░  90%', 'iter  2 █████████░  85% REGRESSION', 'iter  3 ████████░░  81%']);
  });
});

describe('antiLazinessSummary', () => {
  it('shows baseline, current, regressions, level, recovery, best, current iteration and the breaker', () => {
    const text = antiLazinessSummary(loopState()).join('\n');
    expect(text).toMatch(/^Persistence Metrics:/);
    expect(text).toMatch(/Baseline Metrics: +150 tests, 85% coverage \(850\/1000\) \(iteration 1\)/);
    expect(text).toMatch(/Current Metrics: +148 tests, 84% coverage/);
    expect(text).toMatch(/Regression Events: +1 \(critical: test_deletion\)/);
    expect(text).toMatch(/Reinforcement Level: +AGGRESSIVE \(iteration 7 \(≥5\)\)/);
    expect(text).toMatch(/Recovery Attempts: +1; last: reward_hacking → block \(rolled_back\)/);
    expect(text).toMatch(/Best Iteration: +2 \(quality: 85%, verified\)/);
    expect(text).toMatch(/Current Iteration: +7 \(quality: 70%\)/);
    expect(text).toMatch(/Circuit Breaker: +closed \(1 no-files iteration: 2\)/);
  });

  it('says the layer is off when the state has no persistence', () => {
    expect(antiLazinessSummary(loopState({ persistence: undefined }))[1]).toMatch(/anti-laziness layer off/);
  });
});

describe('regressionsView', () => {
  it('lists each regression with deleted tests, recovery and rollback', () => {
    expect(regressionsView(loopState())).toEqual([
      'Regression Events:',
      '  [reg-001] Iteration 7 - test_deletion (CRITICAL)',
      '    - 2 tests deleted (150 → 148 tests)',
      '    - 2 tests deleted:',
      '        test/login.test.ts: validates email',
      '        test/login.test.ts: rejects weak passwords',
      '    - Recovery: escalated, human rejected: changes rolled back',
      '    - Reverted to iter-007-pre',
    ]);
  });

  it('says none when there were no regressions', () => {
    const s = loopState();
    s.persistence!.regressions = [];
    expect(regressionsView(s)).toEqual(['Regression Events:', '  none']);
  });
});

describe('interventionsView', () => {
  it('shows a table of the last N events and counts by type', () => {
    const lines = interventionsView(events, 2);
    expect(lines[0]).toBe('3 interventions (last 2 shown)');
    expect(lines[2]).toMatch(/^ITER +TYPE +SEVERITY +VERDICT +DETAILS$/);
    expect(lines.slice(3, 5).map((l) => l.split(/\s+/)[1])).toEqual(['test_inventory', 'test_deletion']);
    expect(lines[lines.length - 1]).toBe('by type: no_files_written 1, test_inventory 1, test_deletion 1');
  });

  it('says so when nothing was recorded', () => {
    expect(interventionsView([])).toEqual(['no interventions recorded']);
  });
});

describe('profileView', () => {
  it('shows the counts and detections, most frequent first', () => {
    const p = { ...persistence().profile, detections: { a_type: 1, b_type: 3 } };
    const lines = profileView(p);
    expect(lines[0]).toBe('Agent profile: claude-code');
    expect(lines).toContain('  files changed        14 (2 per iteration)');
    expect(lines).toContain('  no-files iterations  1 (14.3%); latest: 2');
    expect(lines.slice(-2)).toEqual(['    b_type  3', '    a_type  1']);
  });
});

describe('analytics', () => {
  it('gathers trajectory, best vs final, regressions, recovery, reinforcement and detection counts', () => {
    const a = analytics(loopState(), events);
    expect(a).toMatchObject({
      loopId: 'ralph-fix-1',
      status: 'accepted',
      iterations: 7,
      best: { iteration: 2 },
      final: { n: 7, quality: 70 },
      bestVsFinal: { bestIteration: 2, finalIteration: 7, bestIsFinal: false, qualityGain: 15, restoredTo: 'worktree' },
      recovery: { attempts: 1 },
      reinforcement: { level: 'AGGRESSIVE', history: [{ to: 'STANDARD' }, { to: 'AGGRESSIVE' }] },
      detections: {
        total: 3,
        byType: { no_files_written: 1, test_inventory: 1, test_deletion: 1 },
        bySeverity: { warning: 1, info: 1, critical: 1 },
        byVerdict: { PASS: 1, WARN: 1, BLOCK: 1 },
      },
      profile: { agent: 'claude-code' },
    });
    expect((a.qualityTrajectory as unknown[]).length).toBe(7);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it('derives the trajectory from iteration records when the layer is off', () => {
    const base = loopState().records;
    const rec = (n: number, quality: number, passed: boolean) =>
      ({
        ...(base[0] ?? {}),
        n,
        quality,
        check: { passed, exitCode: passed ? 0 : 1, durationMs: 1 },
        outcome: 'continue',
      }) as LoopState['records'][number];
    const a = analytics(loopState({ persistence: undefined, records: [rec(1, 50, false), rec(2, 90, true)] }), []);
    expect(a.qualityTrajectory).toEqual([
      { n: 1, quality: 50, verified: false },
      { n: 2, quality: 90, verified: true },
    ]);
    expect(a).toMatchObject({ best: null, regressions: [], reinforcement: null, detections: { total: 0 } });
  });
});

describe('renderReport', () => {
  it('renders the title, summary, trajectory, best vs final, regressions, recovery, interventions and cost', () => {
    const md = renderReport(loopState(), events);
    expect(md.startsWith('# Ralph loop ralph-fix-1: accepted (completion check passed)\n')).toBe(true);
    for (const h of [
      'Summary',
      'Quality trajectory',
      'Best vs final',
      'Regression events',
      'Recovery attempts',
      'Interventions',
      'Reinforcement',
      'Agent profile',
      'Cost',
    ])
      expect(md).toContain(`\n## ${h}\n`);
    expect(md).toContain('| Accepted by | check |');
    expect(md).toContain('| Duration | 12m30s |');
    expect(md).toContain('| Tokens | 1000 in / 500 out |');
    expect(md).toMatch(/```text\niter {2}1 /);
    expect(md).toContain('- **Why:** best quality 85% at iteration 2 (verified), not final (iteration 7: 70%)');
    expect(md).toContain('- **Final:** iteration 7, quality 70%');
    expect(md).toContain('[reg-001] Iteration 7 - test_deletion (CRITICAL)');
    expect(md).toContain('| 7 | test_deletion | reward_hacking | 95% | block | 0 | rolled_back |');
    // PASS events stay out of the interventions table; pipes in details are escaped.
    expect(md).toContain('| 7 | test_deletion | critical | BLOCK | 2 tests deleted \\| login tests |');
    expect(md).not.toContain('| test_inventory |');
    expect(md).toContain('| 5 | STANDARD | AGGRESSIVE | iteration 5 (≥5) |');
    expect(md).toContain('- Cost: $0.4200');
  });

  it('renders a loop without the layer or measurements', () => {
    const md = renderReport(loopState({ persistence: undefined, result: undefined, status: 'running' }), []);
    expect(md.startsWith('# Ralph loop ralph-fix-1: running\n')).toBe(true);
    expect(md).toContain('No quality measurements');
    expect(md).toContain('| Accepted by | still running |');
    expect(md).toContain('## Reinforcement\n\nOff.');
  });
});
