import { parseJestJson } from '../../../../../src/activities/gates/parsers/jest';
import { fixturesOf, itNeverThrows } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('jest');
/** Where fail.json was produced (see test/fixtures/gates/README.md). */
const PROJECT = '/tmp/ralph-gate-fixtures/jest/fail';

/** In file order: jest lists files in the order its workers finished them. */
const FAILED_NAMES = [
  'broken.test.js › Test suite failed to run',
  'math.test.js › math › multiplies two numbers',
  'math.test.js › math › edge cases › adds negatives',
  'math.test.js › throws a plain error',
  'missing-module.test.js › Test suite failed to run',
];

describe('parseJestJson', () => {
  it.each<[string, { total: number; passed: number; failed: number; skipped: number }, number, string[]]>([
    ['pass.json', { total: 3, passed: 3, failed: 0, skipped: 0 }, 0, []],
    // 3 failing tests, 2 suites that failed to run (a syntax error, a missing module), 2 skipped and 1 todo.
    ['fail.json', { total: 10, passed: 2, failed: 5, skipped: 3 }, 0, FAILED_NAMES],
    ['fail-npm-run.txt', { total: 10, passed: 2, failed: 5, skipped: 3 }, 0, FAILED_NAMES],
    ['no-tests-pass.json', { total: 0, passed: 0, failed: 0, skipped: 0 }, 0, []],
  ])('reads %s', (name, counts, errors, failedNames) => {
    const out = parseJestJson(fixture(name));
    expect(out).toMatchObject({ parsed: true, errors, tests: { ...counts, failedNames } });
  });

  it('lists the id of every test, skipped and todo ones included', () => {
    expect(parseJestJson(fixture('fail.json')).tests?.ids).toEqual([
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

  it('reports each failure at its line in its file, in file order, with the message before the stack', () => {
    expect(parseJestJson(fixture('fail.json')).items).toEqual([
      {
        file: 'broken.test.js',
        line: 4,
        severity: 'error',
        message: 'Test suite failed to run: SyntaxError: missing ) after argument list',
      },
      {
        file: 'math.test.js',
        line: 8,
        column: 23,
        severity: 'error',
        message:
          'math › multiplies two numbers: Error: expect(received).toBe(expected) // Object.is equality\nExpected: 7\nReceived: 6',
      },
      {
        file: 'math.test.js',
        line: 12,
        column: 27,
        severity: 'error',
        message:
          'math › edge cases › adds negatives: Error: expect(received).toEqual(expected) // deep equality\nExpected: -3\nReceived: -2',
      },
      {
        file: 'math.test.js',
        line: 22,
        column: 9,
        severity: 'error',
        message: 'throws a plain error: Error: boom: the database is down\nsecond line of the error',
      },
      {
        file: 'missing-module.test.js',
        line: 1,
        column: 18,
        severity: 'error',
        message: "Test suite failed to run: Cannot find module '../src/gone' from 'test/missing-module.test.js'",
      },
    ]);
  });

  it.each([PROJECT, `${PROJECT}/`])('names files relative to the root %s when given one', (root) => {
    const out = parseJestJson(fixture('fail.json'), { root });
    expect(out.tests?.failedNames[1]).toBe('test/math.test.js › math › multiplies two numbers');
    expect(out.tests?.ids).toContain('test/nested/other.test.js: other › passes');
  });

  it("falls back to the files' common directory when the root does not contain them", () => {
    expect(parseJestJson(fixture('pass.json'), { root: '/elsewhere' }).tests?.ids?.[0]).toBe(
      'math.test.js: math › adds two numbers',
    );
  });

  it('counts a suite jest says failed to run even when its entry is missing', () => {
    const report = JSON.parse(fixture('fail.json'));
    report.testResults = report.testResults.filter((r: { name: string }) => !r.name.endsWith('broken.test.js'));
    const out = parseJestJson(JSON.stringify(report));
    expect(out.tests).toMatchObject({ failed: 5, total: 10 });
    expect(out.items.at(-1)?.message).toBe('jest reports 1 failure(s) that no test result shows');
  });

  it('counts success: false with no failed test as an error', () => {
    const report = { ...JSON.parse(fixture('pass.json')), success: false };
    const out = parseJestJson(JSON.stringify(report));
    expect(out).toMatchObject({ parsed: true, errors: 1, tests: { failed: 0 } });
    expect(out.items[0].message).toMatch(/success: false although no test failed/);
  });

  it.each<[string, string, RegExp]>([
    ['empty output (what jest prints when it finds no test)', fixture('empty.txt'), /printed nothing/],
    ['JSON cut short', fixture('fail-truncated.json'), /does not parse .*truncated/],
    ['the human-readable report', 'PASS test/math.test.js\nTests: 3 passed, 3 total\n', /no JSON report .*PASS/],
    ['an object of another tool', '{"filePath":"a.js","messages":[]}', /no numTotalTests\/testResults/],
    ['a test result that is not an object', '{"numTotalTests":1,"testResults":[null]}', /not an object/],
  ])('fails closed on %s', (_case, text, reason) => {
    const out = parseJestJson(text);
    expect(out).toMatchObject({ parsed: false, items: [] });
    expect(out.parseError).toMatch(reason);
  });

  itNeverThrows(parseJestJson, {
    inputs: [
      '{',
      'null',
      '[]',
      '{}',
      '\u0000',
      null,
      undefined,
      42,
      '{"numTotalTests":1,"testResults":[{"name":7,"status":"failed","assertionResults":[{"status":{}}]}]}',
    ],
    alphabet: '{}[]",:0129 \nnumTotalTests testResults status failed null',
    prefixesOf: { tool: 'jest', name: 'fail-npm-run.txt', step: 97 },
  });
});
