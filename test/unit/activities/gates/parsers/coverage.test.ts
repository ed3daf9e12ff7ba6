import type { GateParser } from '../../../../../src/core/gates';
import {
  coverageCount,
  parseCobertura,
  parseIstanbulSummary,
  parseLcov,
} from '../../../../../src/activities/gates/parsers/coverage';
import { fixturesOf, itFailsClosedOnGarbage, noise } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('coverage');

const c = (covered: number, total: number, pct: number) => ({ covered, total, pct });
const NOTHING = c(0, 0, 100);

describe('coverage parsers', () => {
  it.each([
    [
      'summary-jest.json',
      parseIstanbulSummary,
      { lines: c(4, 13, 30.76), statements: c(5, 19, 26.31), functions: c(2, 7, 28.57), branches: c(1, 6, 16.66) },
      // empty.js (nothing to cover) and constants.js (0 functions, fully covered) are not listed.
      [
        { file: '/tmp/gates-js/src/format.js', linesPct: 0 },
        { file: '/tmp/gates-js/src/math.js', linesPct: 50 },
      ],
    ],
    [
      'lcov-jest.info',
      parseLcov,
      // lcov has no statements: they are the lines.
      { lines: c(4, 13, 30.76), statements: c(4, 13, 30.76), functions: c(2, 7, 28.57), branches: c(1, 6, 16.66) },
      [
        { file: 'src/format.js', linesPct: 0 },
        { file: 'src/math.js', linesPct: 50 },
      ],
    ],
    [
      'cobertura-jest.xml',
      parseCobertura,
      { lines: c(4, 13, 30.76), statements: c(4, 13, 30.76), functions: c(2, 7, 28.57), branches: c(1, 6, 16.66) },
      [
        { file: 'src/format.js', linesPct: 0 },
        { file: 'src/math.js', linesPct: 50 },
      ],
    ],
    [
      'lcov-coverage-py.info',
      parseLcov,
      { lines: c(6, 19, 31.57), statements: c(6, 19, 31.57), functions: c(2, 4, 50), branches: c(1, 8, 12.5) },
      [
        { file: 'calc/cli.py', linesPct: 0 },
        { file: 'calc/ops.py', linesPct: 60 },
      ],
    ],
    [
      'cobertura-coverage-py.xml',
      parseCobertura,
      // coverage.py writes no <method>: 0 functions, pct 100, so a threshold must compare counts.
      { lines: c(6, 19, 31.57), statements: c(6, 19, 31.57), functions: NOTHING, branches: c(1, 8, 12.5) },
      [
        { file: 'cli.py', linesPct: 0 },
        { file: 'ops.py', linesPct: 60 },
      ],
    ],
    [
      'summary-jest-nothing-to-cover.json',
      parseIstanbulSummary,
      { lines: NOTHING, statements: NOTHING, functions: NOTHING, branches: NOTHING },
      [],
    ],
    [
      'lcov-jest-nothing-to-cover.info',
      parseLcov,
      { lines: NOTHING, statements: NOTHING, functions: NOTHING, branches: NOTHING },
      [],
    ],
    [
      'cobertura-jest-nothing-to-cover.xml',
      parseCobertura,
      { lines: NOTHING, statements: NOTHING, functions: NOTHING, branches: NOTHING },
      [],
    ],
  ] as [string, GateParser, object, object[]][])(
    'reads the counts of %s and lists uncovered files worst first',
    (file, parse, totals, files) => {
      const r = parse(fixture(file));
      expect(r.parsed).toBe(true);
      expect(r.coverage).toEqual({ ...totals, files });
      expect(r.items).toEqual([]);
    },
  );

  it('reports pct 100 with 0/0 counts when there is nothing to cover', () => {
    const lines = parseIstanbulSummary(fixture('summary-jest-nothing-to-cover.json')).coverage?.lines;
    expect(lines).toEqual({ covered: 0, total: 0, pct: 100 });
    // The check a threshold must make: counts, not pct.
    expect(lines!.covered * 100 >= 90 * lines!.total).toBe(true);
  });

  it('recomputes pct from the counts, rounding down, whatever the tool wrote', () => {
    expect(coverageCount(2, 3).pct).toBe(66.66);
    expect(coverageCount(29, 100).pct).toBe(29);
    expect(coverageCount(99999, 100000).pct).toBe(99.99);
    const lying = JSON.stringify({
      total: {
        lines: { total: 10, covered: 1, pct: 100 },
        statements: { total: 10, covered: 1, pct: 100 },
        functions: { total: 1, covered: 1, pct: 100 },
        branches: { total: 0, covered: 0, pct: 0 },
      },
    });
    expect(parseIstanbulSummary(lying).coverage).toMatchObject({ lines: c(1, 10, 10), branches: NOTHING });
  });

  it('lists only the files under fileThreshold, at most maxFiles', () => {
    expect(parseIstanbulSummary(fixture('summary-jest.json'), { fileThreshold: 40 }).coverage?.files).toEqual([
      { file: '/tmp/gates-js/src/format.js', linesPct: 0 },
    ]);
    expect(parseLcov(fixture('lcov-jest.info'), { maxFiles: 1 }).coverage?.files).toEqual([
      { file: 'src/format.js', linesPct: 0 },
    ]);
  });

  it('uses a cobertura class line-rate only when the class has no <lines>', () => {
    const xml =
      '<coverage lines-valid="4" lines-covered="2" branches-valid="0" branches-covered="0">' +
      '<packages><package><classes><class filename="a.py" line-rate="0.29"/><class filename="b.py" line-rate="0"><lines/></class></classes></package></packages></coverage>';
    expect(parseCobertura(xml).coverage?.files).toEqual([{ file: 'a.py', linesPct: 29 }]);
  });

  it('counts cobertura lines and branches from <line>s when the totals are missing', () => {
    const xml =
      '<coverage line-rate="0.5"><packages><package><classes><class filename="a.py"><methods><method name="f" hits="0"><lines><line number="1" hits="0"/></lines></method></methods><lines>' +
      '<line number="1" hits="1"/><line number="2" hits="0" branch="true" condition-coverage="50% (1/2)"/></lines></class></classes></package></packages></coverage>';
    expect(parseCobertura(xml).coverage).toEqual({
      lines: c(1, 2, 50),
      statements: c(1, 2, 50),
      functions: c(0, 1, 0),
      branches: c(1, 2, 50),
      files: [{ file: 'a.py', linesPct: 50 }],
    });
  });

  it.each([
    ['summary-jest-truncated.json', parseIstanbulSummary, /not complete JSON/],
    ['lcov-jest-truncated.info', parseLcov, /truncated lcov report: record for src\/math.js has no end_of_record/],
    ['cobertura-jest-truncated.xml', parseCobertura, /truncated/],
    ['empty.txt', parseIstanbulSummary, /empty/],
    ['empty.txt', parseLcov, /empty/],
    ['empty.txt', parseCobertura, /empty/],
  ] as [string, GateParser, RegExp][])('fails closed on %s (%p)', (file, parse, reason) => {
    const r = parse(fixture(file));
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  it.each([
    ['istanbul without total', parseIstanbulSummary, '{"/a.js":{}}', /no "total"/],
    [
      'istanbul with a missing metric',
      parseIstanbulSummary,
      '{"total":{"lines":{"total":1,"covered":1}}}',
      /total.statements/,
    ],
    [
      'istanbul covering more than the total',
      parseIstanbulSummary,
      fixture('summary-jest.json').replace('"covered":4', '"covered":40'),
      /total.lines/,
    ],
    ['lcov with hits above the total', parseLcov, 'SF:a.js\nLF:1\nLH:2\nend_of_record\n', /more hits/],
    ['lcov data outside a record', parseLcov, 'DA:1,1\n', /outside a record/],
    ['cobertura with another root', parseCobertura, '<testsuites/>', /expected <coverage>/],
    [
      'cobertura with a bad count',
      parseCobertura,
      '<coverage lines-valid="x" lines-covered="1"/>',
      /bad lines-covered\/lines-valid/,
    ],
  ] as [string, GateParser, string, RegExp][])('fails closed on %s', (_name, parse, text, reason) => {
    const r = parse(text);
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  itFailsClosedOnGarbage(
    [parseIstanbulSummary, parseLcov, parseCobertura],
    ['', '{', 'null', '[]', '{}', '<a', '<coverage', 'end_of_record', noise(4096)],
  );
});
