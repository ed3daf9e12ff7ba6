import { parsePytestSummary } from '../../../../../src/activities/gates/parsers/pytest';
import { fixturesOf, itFailsClosedOnGarbage, noise } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('pytest');

const CALC_FAILURES = [
  'tests/test_calc.py::test_div_wrong',
  'tests/test_calc.py::test_div_by_zero',
  'tests/test_calc.py::TestParse::test_float',
  'tests/test_calc.py::TestParse::test_digits[x<y>&z]',
  'tests/test_calc.py::test_uses_broken',
];

describe('parsePytestSummary', () => {
  it.each([
    ['pass-q.txt', { total: 7, passed: 6, failed: 0, skipped: 1 }, []],
    ['pass-ra-color.txt', { total: 7, passed: 6, failed: 0, skipped: 1 }, []],
    // 4 failed + 1 error = 5 failed; 4 passed + 1 xpassed = 5 passed; 1 skipped + 1 xfailed = 2 skipped.
    ['fail-q.txt', { total: 12, passed: 5, failed: 5, skipped: 2 }, CALC_FAILURES],
    ['fail-q-color.txt', { total: 12, passed: 5, failed: 5, skipped: 2 }, CALC_FAILURES],
    ['fail-ra.txt', { total: 12, passed: 5, failed: 5, skipped: 2 }, CALC_FAILURES],
    ['collection-error.txt', { total: 1, passed: 0, failed: 1, skipped: 0 }, ['tests/test_broken_import.py']],
    [
      'collection-error-continue.txt',
      { total: 13, passed: 5, failed: 6, skipped: 2 },
      [...CALC_FAILURES, 'tests/test_broken_import.py'],
    ],
    ['no-tests.txt', { total: 0, passed: 0, failed: 0, skipped: 0 }, []],
  ])('reads the counts and failing node ids of %s', (file, counts, names) => {
    const r = parsePytestSummary(fixture(file));
    expect(r.parsed).toBe(true);
    expect(r.tests).toMatchObject(counts);
    expect([...(r.tests?.failedNames ?? [])].sort()).toEqual([...names].sort());
    expect(r.errors).toBe(counts.failed);
    expect(r.items).toHaveLength(names.length);
  });

  it('makes an item of each FAILED and ERROR line with its file and message', () => {
    const r = parsePytestSummary(fixture('fail-q-color.txt'));
    expect(r.items).toContainEqual({
      file: 'tests/test_calc.py',
      code: 'FAILED',
      severity: 'error',
      message: 'tests/test_calc.py::TestParse::test_digits[x<y>&z]: AssertionError: assert False',
    });
    expect(r.items).toContainEqual({
      file: 'tests/test_calc.py',
      code: 'ERROR',
      severity: 'error',
      message: 'tests/test_calc.py::test_uses_broken: RuntimeError: fixture exploded',
    });
  });

  it('names the module of a collection error that has no message', () => {
    const r = parsePytestSummary(fixture('collection-error.txt'));
    expect(r.items).toEqual([
      {
        file: 'tests/test_broken_import.py',
        code: 'ERROR',
        severity: 'error',
        message: 'tests/test_broken_import.py: error',
      },
    ]);
  });

  it('keeps a parametrize id containing " - " whole', () => {
    const r = parsePytestSummary('FAILED t.py::test_x[a - b] - assert 1 == 2\n1 failed in 0.01s\n');
    expect(r.tests?.failedNames).toEqual(['t.py::test_x[a - b]']);
    expect(r.items[0].message).toBe('t.py::test_x[a - b]: assert 1 == 2');
  });

  it('reads a long run closing line with its wall-clock suffix and warnings', () => {
    const r = parsePytestSummary('=== 1 failed, 2 passed, 3 deselected, 4 warnings, 1 rerun in 65.20s (0:01:05) ===');
    expect(r.tests).toEqual({ total: 3, passed: 2, failed: 1, skipped: 0, failedNames: [] });
  });

  it.each([
    ['fail-q-truncated.txt', /no pytest summary line/],
    ['empty.txt', /empty/],
  ])('fails closed on %s', (file, reason) => {
    const r = parsePytestSummary(fixture(file));
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
    expect(r.items).toEqual([]);
  });

  itFailsClosedOnGarbage(parsePytestSummary, [
    '',
    '{',
    'null',
    '<a',
    ' in 0.1s',
    '1 banana in 2s',
    'passed',
    noise(4096),
  ]);
});
