/**
 * What a test run's output says beyond its exit code, for the verification tree's first run (the original tests
 * without the agent's new test files): a run whose tests all passed but whose coverage threshold failed did not fail
 * on the original tests. New product code covered only by the new tests lowers coverage without them; the second run,
 * with them, judges the threshold. Pure.
 */

/** Coverage-threshold failures of jest, vitest, pytest-cov, nyc/c8 and go-test-coverage style tools. */
const COVERAGE_FAILED =
  /coverage threshold for \S+ \([\d.]+%\) not met|coverage for \S+ \([\d.]+%\) does not meet|required test coverage of [\d.]+% not reached|coverage: total of [\d.]+% is (?:less|lower) than|ERROR: Coverage for \S+ \([\d.]+%\)/i;
/** A failed test, in the summaries of jest, vitest, mocha, pytest, unittest and go test. */
const TEST_FAILED =
  /^(?:FAIL[ \t]+\S*[/.]\S*|FAIL\t|--- FAIL)|^\s*(?:Tests?|Test Files|Test Suites):?\s+\d+ failed|\b\d+ (?:failed|failing|errors?)\b|^FAILED\b|^(?:✗|✕|×) /m;

/** Whether the output shows a coverage threshold failing while every test passed. */
export const onlyCoverageFailed = (output: string): boolean =>
  COVERAGE_FAILED.test(output) && !TEST_FAILED.test(output);
