import { gateNumbers, numbersOf, numbersRows } from '../../../src/core/gate-numbers';
import { gateNumbersLines } from '../../../src/views/gate-numbers';

const cov = (pct: number) => ({ covered: pct, total: 100, pct });

describe('gate numbers', () => {
  it('takes tests, failing tests, coverage and type/lint/build errors from the verdicts of an iteration', () => {
    expect(
      numbersOf(7, [
        { kind: 'test', metrics: { tests: 148, failing: 2 } },
        { kind: 'test', metrics: { tests: 10, failing: 0 } },
        { kind: 'coverage', metrics: { coverage: cov(81.24) } },
        { kind: 'typecheck', metrics: { errors: 3 } },
        { kind: 'lint', metrics: { errors: 0 } },
        { kind: 'build', metrics: { errors: 1 } },
        { kind: 'custom' },
      ]),
    ).toEqual({ iteration: 7, tests: 158, failing: 2, coverage: 81.2, typeErrors: 3, lintErrors: 0, buildErrors: 1 });
    expect(numbersOf(2, [{ kind: 'custom' }, { kind: 'audit', metrics: {} }])).toBeUndefined();
  });

  it('compares the flagged iteration with the last earlier one that measured anything', () => {
    const records = [
      { n: 5, numbers: { iteration: 5, tests: 150, failing: 2, coverage: 85, typeErrors: 0 } },
      { n: 6 },
      { n: 7, numbers: { iteration: 7, tests: 148, failing: 0, coverage: 80.5, typeErrors: 0, lintErrors: 4 } },
    ];
    const g = gateNumbers(records, 7)!;
    expect(g.before?.iteration).toBe(5);
    expect(numbersRows(g)).toEqual([
      ['tests', '150', '148', '-2'],
      ['failing tests', '2', '0', '-2'],
      ['coverage', '85%', '80.5%', '-4.5'],
      ['type errors', '0', '0', '0'],
      ['lint errors', '-', '4', ''],
    ]);
    expect(gateNumbersLines(g)).toEqual([
      '               iteration 5  iteration 7  change',
      'tests                  150          148      -2',
      'failing tests            2            0      -2',
      'coverage               85%        80.5%    -4.5',
      'type errors              0            0       0',
      'lint errors              -            4',
    ]);
    expect(gateNumbers(records, 6)).toBeUndefined();
    expect(gateNumbers(records.slice(2), 7)).toEqual({ after: records[2].numbers });
    expect(gateNumbersLines(undefined)).toEqual([]);
  });
});
