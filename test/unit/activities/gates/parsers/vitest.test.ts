import { parseVitestJson } from '../../../../../src/activities/gates/parsers/vitest';
import { fixturesOf, itNeverThrows } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('vitest');

const FAILED_NAMES = [
  'broken.test.js › Test suite failed to run',
  'math.test.js › math › multiplies two numbers',
  'math.test.js › math › edge cases › adds negatives',
  'math.test.js › throws a plain error',
  'missing-module.test.js › Test suite failed to run',
];

describe('parseVitestJson', () => {
  it.each<[string, { total: number; passed: number; failed: number; skipped: number }, number, string[]]>([
    ['pass.json', { total: 3, passed: 3, failed: 0, skipped: 0 }, 0, []],
    // 3 failing tests, 2 files that failed to import (a syntax error, a missing module), 2 skipped and 1 todo.
    ['fail.json', { total: 10, passed: 2, failed: 5, skipped: 3 }, 0, FAILED_NAMES],
    ['fail-npm-run.txt', { total: 10, passed: 2, failed: 5, skipped: 3 }, 0, FAILED_NAMES],
    // Without --passWithNoTests vitest prints success: false: no test found is an error, never a pass.
    ['no-tests.json', { total: 0, passed: 0, failed: 0, skipped: 0 }, 1, []],
    ['no-tests-pass.json', { total: 0, passed: 0, failed: 0, skipped: 0 }, 0, []],
    // Vitest exits 1 on an unhandled error but its JSON says success: true; only the exit code shows it.
    ['unhandled-error.json', { total: 1, passed: 1, failed: 0, skipped: 0 }, 0, []],
  ])('reads %s', (name, counts, errors, failedNames) => {
    expect(parseVitestJson(fixture(name))).toMatchObject({ parsed: true, errors, tests: { ...counts, failedNames } });
  });

  it('lists the id of every test, skipped and todo ones included', () => {
    expect(parseVitestJson(fixture('fail.json')).tests?.ids).toEqual([
      'math.test.js: math › adds two numbers',
      'math.test.js: math › multiplies two numbers',
      'math.test.js: math › edge cases › adds negatives',
      'math.test.js: math › edge cases › handles NaN',
      'math.test.js: math › edge cases › handles bigint',
      'math.test.js: throws a plain error',
      'nested/other.test.js: other › passes',
      'nested/other.test.js: other › is skipped',
    ]);
  });

  it('reports each failure at its line in its file, with the message before the stack', () => {
    expect(parseVitestJson(fixture('fail.json')).items).toEqual([
      {
        file: 'broken.test.js',
        severity: 'error',
        message:
          'Test suite failed to run: Failed to parse source for import analysis because the content contains invalid JS ' +
          'syntax. If you are using JSX, make sure to name the file with the .jsx or .tsx extension.',
      },
      {
        file: 'math.test.js',
        line: 9,
        column: 23,
        severity: 'error',
        message: 'math › multiplies two numbers: AssertionError: expected 6 to be 7 // Object.is equality',
      },
      {
        file: 'math.test.js',
        line: 13,
        column: 27,
        severity: 'error',
        message: 'math › edge cases › adds negatives: AssertionError: expected -2 to deeply equal -3',
      },
      {
        file: 'math.test.js',
        line: 23,
        column: 9,
        severity: 'error',
        message: 'throws a plain error: Error: boom: the database is down\nsecond line of the error',
      },
      {
        file: 'missing-module.test.js',
        severity: 'error',
        message:
          "Test suite failed to run: Cannot find module '../src/gone.js' imported from " +
          "'/tmp/ralph-gate-fixtures/vitest/fail/test/missing-module.test.js'",
      },
    ]);
  });

  it('names files relative to the root when given one', () => {
    const out = parseVitestJson(fixture('fail.json'), { root: '/tmp/ralph-gate-fixtures/vitest/fail' });
    expect(out.tests?.failedNames[0]).toBe('test/broken.test.js › Test suite failed to run');
  });

  it.each<[string, string, RegExp]>([
    ['empty output', fixture('empty.txt'), /printed nothing/],
    ['JSON cut short', fixture('fail-truncated.json'), /vitest JSON report does not parse .*truncated/],
    ['the human-readable report', ' ✓ test/math.test.js (3 tests) 4ms\n', /no JSON report in vitest output/],
  ])('fails closed on %s', (_case, text, reason) => {
    const out = parseVitestJson(text);
    expect(out).toMatchObject({ parsed: false, items: [] });
    expect(out.parseError).toMatch(reason);
  });

  itNeverThrows(parseVitestJson, {
    inputs: ['{', 'null', '[]', '{}', '\u0000', null, undefined, 42],
    alphabet: '{}[]",:0129 \nnumTotalTests testResults status skipped null',
    prefixesOf: { tool: 'vitest', name: 'fail-npm-run.txt', step: 53 },
  });
});
