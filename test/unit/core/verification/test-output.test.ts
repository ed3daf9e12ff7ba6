import { onlyCoverageFailed } from '../../../../src/core/verification/test-output';

describe('onlyCoverageFailed', () => {
  it.each([
    [
      'jest',
      'Test Suites: 4 passed, 4 total\nTests:       160 passed, 160 total\nJest: "global" coverage threshold for branches (100%) not met: 96.55%',
    ],
    [
      'vitest',
      ' Test Files  3 passed (3)\n      Tests  40 passed (40)\nERROR: Coverage for lines (95%) does not meet global threshold (100%)',
    ],
    [
      'pytest-cov',
      '================ 12 passed in 0.30s ================\nFAIL Required test coverage of 100% not reached. Total coverage: 97.50%',
    ],
  ])('sees a %s coverage failure with every test passing', (_runner, out) => {
    expect(onlyCoverageFailed(out)).toBe(true);
  });

  it.each([
    [
      'a jest test failure',
      'FAIL src/index.test.ts\nTests:       4 failed, 156 passed, 160 total\nJest: "global" coverage threshold for lines (100%) not met: 90%',
    ],
    ['a pytest failure', '1 failed, 11 passed in 0.2s\nFAIL Required test coverage of 100% not reached.'],
    ['a go failure', '--- FAIL: TestVersion (0.00s)\nFAIL\ncoverage: total of 80% is less than 90%'],
    ['no coverage message', 'Tests: 160 passed\nsomething else broke'],
  ])('does not excuse %s', (_what, out) => {
    expect(onlyCoverageFailed(out)).toBe(false);
  });
});
