import {
  budgetState,
  continuationFor,
  evaluateGate,
  gateFeedback,
  isSuspiciousClaim,
  Profiles,
  qualityScore,
  type GateRun,
} from '../../../src/core/gate-rules';
import type { ParsedGateOutput } from '../../../src/core/gates';

const run = (over: Partial<Omit<GateRun, 'parsed'>> & { parsed?: Partial<ParsedGateOutput> }): GateRun => ({
  name: over.name ?? 'g',
  kind: over.kind ?? 'build',
  exitCode: over.exitCode ?? 0,
  timedOut: over.timedOut ?? false,
  startError: over.startError,
  parsed: { parsed: true, items: [], ...over.parsed },
  outputPath: '/a/g.log',
  durationMs: 5,
});
const cov = (covered: number, total: number) => ({ covered, total, pct: total ? (covered / total) * 100 : 100 });

describe('evaluateGate', () => {
  it.each([
    ['a timeout', run({ timedOut: true }), /timed out/],
    ['a command that cannot start', run({ startError: 'ENOENT' }), /could not start/],
    [
      'unparseable output',
      run({ parsed: { parsed: false, parseError: 'truncated JSON' } }),
      /could not be parsed \(truncated JSON\); raw output: \/a\/g.log/,
    ],
    ['a build exiting 1', run({ exitCode: 1 }), /Build failed/],
    [
      'a test run where no test ran',
      run({ kind: 'test', parsed: { tests: { total: 0, passed: 0, failed: 0, skipped: 3, failedNames: [] } } }),
      /no tests ran/,
    ],
  ])('fails closed on %s', (_what, r, message) => {
    const v = evaluateGate(r, {});
    expect(v.passed).toBe(false);
    expect(v.message).toMatch(message);
  });

  it('applies lint thresholds of each profile', () => {
    const lint = run({ kind: 'lint', exitCode: 1, parsed: { errors: 0, warnings: 40 } });
    expect(evaluateGate(lint, Profiles.strict.lint).passed).toBe(false);
    expect(evaluateGate(lint, Profiles.standard.lint).passed).toBe(true);
    expect(evaluateGate(run({ kind: 'lint', parsed: { errors: 4, warnings: 0 } }), Profiles.relaxed.lint).passed).toBe(
      true,
    );
  });

  it('applies the test pass rate, and fails a 100% pass whose runner exited non-zero', () => {
    const t = (passed: number, failed: number, exitCode = failed ? 1 : 0) =>
      run({
        kind: 'test',
        exitCode,
        parsed: { tests: { total: passed + failed, passed, failed, skipped: 0, failedNames: [] } },
      });
    expect(evaluateGate(t(96, 4), Profiles.standard.test).passed).toBe(true);
    expect(evaluateGate(t(96, 4), Profiles.strict.test).passed).toBe(false);
    expect(evaluateGate(t(10, 0, 1), Profiles.strict.test).passed).toBe(false);
  });

  it('compares coverage counts, not percentages: 0 of 0 functions is not a failure, 1 of 3 is', () => {
    const c = (functions: { covered: number; total: number; pct: number }) =>
      run({
        kind: 'coverage',
        parsed: { coverage: { lines: cov(95, 100), branches: cov(9, 10), statements: cov(95, 100), functions } },
      });
    expect(evaluateGate(c(cov(0, 0)), Profiles.strict.coverage).passed).toBe(true);
    const v = evaluateGate(c(cov(1, 3)), Profiles.strict.coverage);
    expect(v.passed).toBe(false);
    expect(v.message).toBe('Code coverage below threshold: functions 33.3% < 90% (gap 56.7%, 1/3).');
  });

  it('fails an audit above the allowed severity', () => {
    const a = run({ kind: 'audit', parsed: { audit: { maxSeverity: 'high', counts: { high: 1 } } } });
    expect(evaluateGate(a, Profiles.standard.audit).passed).toBe(false);
    expect(evaluateGate(a, Profiles.relaxed.audit).passed).toBe(true);
  });
});

describe('continuation prompts', () => {
  it('list the exact failing items in the non-negotiable template of the gate kind', () => {
    const v = evaluateGate(
      run({
        kind: 'typecheck',
        exitCode: 2,
        parsed: {
          errors: 1,
          items: [
            {
              file: 'a.ts',
              line: 3,
              column: 7,
              code: 'TS2322',
              severity: 'error',
              message: 'Type string is not assignable',
            },
          ],
        },
      }),
      {},
    );
    const text = continuationFor(v);
    expect(text).toContain('REQUIRED: Fix ALL compilation errors before claiming done.');
    expect(text).toContain('a.ts:3:7 TS2322 Type string is not assignable');
    expect(gateFeedback([v], { claimed: true, rejection: 2, maxRetries: 3 })).toMatch(
      /^TASK COMPLETION REJECTED\n[\s\S]*Rejection count: 2 \(a human reviews after 3\)/,
    );
  });
});

describe('qualityScore', () => {
  it('weights gates and gives partial credit', () => {
    const pass = evaluateGate(run({}), {});
    const half = evaluateGate(
      run({
        kind: 'test',
        exitCode: 1,
        parsed: { tests: { total: 2, passed: 1, failed: 1, skipped: 0, failedNames: [] } },
      }),
      { minPassRate: 100 },
    );
    expect(qualityScore([pass]).score).toBe(100);
    expect(qualityScore([pass, half])).toEqual({
      score: 73,
      breakdown: [
        { name: 'g', points: 25, of: 25 },
        { name: 'g', points: 15, of: 30 },
      ],
    });
  });
});

describe('budgetState and isSuspiciousClaim', () => {
  it('reports the smaller share left of tokens and cost', () => {
    expect(budgetState({ tokens: 900, costUsd: 0.1 }, { maxTokens: 1000, maxCostUsd: 1 })).toMatchObject({
      exhausted: false,
    });
    expect(budgetState({ tokens: 900, costUsd: 0.1 }, { maxTokens: 1000 })!.left).toBeCloseTo(0.1);
    expect(budgetState({ tokens: 1000, costUsd: 0 }, { maxTokens: 1000 })!.exhausted).toBe(true);
    expect(budgetState({ tokens: 1000, costUsd: 0 }, { maxTokens: 1000 }, 1.5)!.exhausted).toBe(false);
    expect(budgetState({ tokens: 1, costUsd: 0 }, undefined)).toBeUndefined();
  });

  it('flags a claim with far fewer tokens than usual and no files', () => {
    expect(isSuspiciousClaim({ claimed: true, claimedFiles: 0, tokens: 100 }, [1000, 1200])).toBe(true);
    expect(isSuspiciousClaim({ claimed: true, claimedFiles: 1, tokens: 100 }, [1000, 1200])).toBe(false);
    expect(isSuspiciousClaim({ claimed: true, claimedFiles: 0, tokens: 900 }, [1000, 1200])).toBe(false);
    expect(isSuspiciousClaim({ claimed: true, claimedFiles: 0, tokens: 100 }, [1000])).toBe(false);
  });
});
