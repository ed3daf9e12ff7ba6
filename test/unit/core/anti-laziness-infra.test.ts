import { defaultAntiLazinessConfig } from '../../../src/config/anti-laziness-config';
import type { AgentFailureKind } from '../../../src/core/agent-failure';
import { detection } from '../../../src/core/detections';
import { type IterationFindings, AntiLazinessTracker } from '../../../src/core/anti-laziness';

/** Findings of an iteration whose agent failed with `error`, wrote nothing and claimed nothing. */
const failedIteration = (n: number, failureKind?: AgentFailureKind): IterationFindings => ({
  n,
  now: `2026-01-15T12:0${n}:00.000Z`,
  claimed: false,
  verified: false,
  exitCode: 1,
  changes: { added: 0, modified: 0, deleted: 0, files: [] },
  // What the workspace pass finds after a run that wrote nothing (src/core/detectors/evidence.ts).
  detections: [detection('no_files_written', 'warning', 'the agent wrote no file')],
  hallucinated: 0,
  deletedTests: [],
  diffSig: 'same-diff',
  stateSig: 'same-state',
  outputSig: 'same-output',
  errorText: 'API Error: 529 Overloaded. This is a server-side issue, usually temporary',
  taskChars: 200,
  failureKind,
});

describe('AntiLazinessTracker with infrastructure failures', () => {
  it('opens stuck-loop and circuit-breaker findings when the same failure is the agent own (task)', () => {
    const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'loop-1', 'claude-code');
    const types = [1, 2, 3, 4, 5].flatMap((n) => t.afterIteration(failedIteration(n, 'task')).types);
    expect(types).toContain('stuck_loop');
    expect(types).toContain('circuit_breaker');
  });

  it.each(['overloaded', 'usage_limit', 'auth', 'binary_missing'] as const)(
    'records nothing for iterations that failed with %s: no stuck loop, no no-files count, no circuit breaker',
    (kind) => {
      const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'loop-1', 'claude-code');
      const decisions = [1, 2, 3, 4, 5, 6].map((n) => t.afterIteration(failedIteration(n, kind)));
      expect(decisions.flatMap((d) => d.types)).toEqual([]);
      expect(decisions.every((d) => d.verdict === 'PASS' && !d.escalate && !d.feedback.length)).toBe(true);
      expect(t.state.fingerprints).toEqual([]);
      expect(t.state.profile.noFilesIterations).toEqual([]);
      expect(t.state.circuitOpen).toBeFalsy();
      expect(t.state.trajectory).toEqual([]);
    },
  );

  it('still counts the agent own failures around infrastructure ones', () => {
    const t = new AntiLazinessTracker(defaultAntiLazinessConfig(), 'loop-1', 'claude-code');
    t.afterIteration(failedIteration(1, 'task'));
    t.afterIteration(failedIteration(2, 'overloaded'));
    t.afterIteration(failedIteration(3, 'task'));
    expect(t.state.fingerprints.map((f) => f.n)).toEqual([1, 3]);
    expect(t.state.profile.noFilesIterations).toEqual([1, 3]);
  });
});
