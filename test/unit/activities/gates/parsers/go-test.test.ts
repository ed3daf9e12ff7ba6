import { parseGoTestJson } from '../../../../../src/activities/gates/parsers/go-test';
import { fixturesOf, itFailsClosedOnGarbage, noise } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('go-test');

const M = 'example.com/gates';
const MATHX_IDS = [
  `${M}/mathx.TestAdd`,
  `${M}/mathx.TestAbs/positive`,
  `${M}/mathx.TestAbs/negative`,
  `${M}/mathx.TestAbs/zero`,
  `${M}/mathx.TestSlow`,
];
const FAILED = [
  `${M}/broken [build failed]`,
  `${M}/strs.TestReverse/unicode`,
  `${M}/strs.TestEmpty`,
  `${M}/strs.TestPanics`,
];

/** The buildtext run as Go before 1.24 wrote it: no JSON event for the package that did not build, only a text line. */
const goBefore124 = (): string =>
  fixture('fail-buildtext.json')
    .split('\n')
    .filter((l) => !l.includes(`"Package":"${M}/broken"`))
    .join('\n') + `FAIL\t${M}/broken [build failed]\n`;

describe('parseGoTestJson', () => {
  it.each([
    // Leaves only: TestAbs is its three subtests; TestSlow skipped in -short mode.
    ['pass.json', () => fixture('pass.json'), { total: 5, passed: 4, failed: 0, skipped: 1 }, []],
    // mathx 4 pass + 1 skip; strs TestUpper, ascii pass, unicode/TestEmpty/TestPanics fail, TestWindowsOnly skip;
    // broken counts as one failure; nofiles (no test files) is ignored.
    ['fail.json', () => fixture('fail.json'), { total: 12, passed: 6, failed: 4, skipped: 2 }, FAILED],
    [
      'fail-buildtext.json',
      () => fixture('fail-buildtext.json'),
      { total: 12, passed: 6, failed: 4, skipped: 2 },
      FAILED,
    ],
    [
      'fail-buildtext.json with its stderr',
      () => fixture('fail-buildtext.stderr.txt') + fixture('fail-buildtext.json'),
      { total: 12, passed: 6, failed: 4, skipped: 2 },
      FAILED,
    ],
    ['the same run from Go < 1.24', goBefore124, { total: 12, passed: 6, failed: 4, skipped: 2 }, FAILED],
  ])('counts leaf tests and names failures of %s', (_name, text, counts, names) => {
    const r = parseGoTestJson(text());
    expect(r.parsed).toBe(true);
    expect(r.tests).toMatchObject(counts);
    expect([...(r.tests?.failedNames ?? [])].sort()).toEqual([...names].sort());
    expect(r.tests?.ids).toHaveLength(counts.total);
    expect(r.tests?.ids).toEqual(expect.arrayContaining(MATHX_IDS));
    expect(r.errors).toBe(counts.failed);
  });

  it('makes an item of each failing test with what it logged and its file:line', () => {
    const items = parseGoTestJson(fixture('fail.json')).items;
    expect(items).toContainEqual({
      file: 'strs_test.go',
      line: 20,
      code: 'FAIL',
      severity: 'error',
      message: `${M}/strs.TestReverse/unicode: strs_test.go:20: Reverse("héllo") = "oll\\xa9\\xc3h", want "olléh"`,
    });
    expect(items).toContainEqual({
      file: 'strs_test.go',
      line: 28,
      code: 'FAIL',
      severity: 'error',
      message: `${M}/strs.TestEmpty: strs_test.go:28: empty string reversed wrongly\nstrs_test.go:29: this is a deliberate failure`,
    });
    // A panic points at the test's own frame, not the testing or runtime packages.
    expect(items.find((i) => i.message.startsWith(`${M}/strs.TestPanics`))).toMatchObject({
      file: '/tmp/gates-go/strs/strs_test.go',
      line: 39,
    });
    expect(items.find((i) => i.message.startsWith(`${M}/strs.TestPanics`))?.message).toMatch(
      /panic: assignment to entry in nil map/,
    );
  });

  it('makes an item of each compiler error of a package that did not build', () => {
    const compilerError = {
      file: 'broken/broken_test.go',
      line: 6,
      column: 17,
      code: 'build',
      severity: 'error',
      message: 'cannot use Double(2) (value of type int) as string value in variable declaration',
    };
    expect(parseGoTestJson(fixture('fail.json')).items).toContainEqual(compilerError);
    expect(parseGoTestJson(fixture('fail-buildtext.stderr.txt') + fixture('fail-buildtext.json')).items).toContainEqual(
      compilerError,
    );
    // Without stderr the compiler's words are lost: the package failure is still an item.
    expect(parseGoTestJson(fixture('fail-buildtext.json')).items).toContainEqual({
      code: 'FAIL',
      severity: 'error',
      message: `${M}/broken [build failed]`,
    });
  });

  it('counts a parent that failed while its subtests passed, once', () => {
    const ev = (o: object): string => JSON.stringify({ Package: 'p', ...o });
    const text = [
      ev({ Action: 'run', Test: 'TestA' }),
      ev({ Action: 'run', Test: 'TestA/x' }),
      ev({ Action: 'pass', Test: 'TestA/x' }),
      ev({ Action: 'output', Test: 'TestA', Output: '    a_test.go:9: after the subtests\n' }),
      ev({ Action: 'fail', Test: 'TestA' }),
      ev({ Action: 'fail' }),
    ].join('\n');
    const r = parseGoTestJson(text);
    expect(r.tests).toEqual({
      total: 2,
      passed: 1,
      failed: 1,
      skipped: 0,
      failedNames: ['p.TestA'],
      ids: ['p.TestA', 'p.TestA/x'],
    });
    expect(r.items).toEqual([
      {
        file: 'a_test.go',
        line: 9,
        code: 'FAIL',
        severity: 'error',
        message: 'p.TestA: a_test.go:9: after the subtests',
      },
    ]);
  });

  it('counts a package that failed outside any test as one failure', () => {
    const text = [
      '{"Action":"output","Package":"p","Output":"TestMain: no database\\n"}',
      '{"Action":"fail","Package":"p"}',
    ].join('\n');
    expect(parseGoTestJson(text).tests).toMatchObject({ total: 1, failed: 1, failedNames: ['p [failed]'] });
  });

  it.each([
    ['fail-truncated.json', () => fixture('fail-truncated.json'), /last line is cut off/],
    [
      'fail-truncated.json cut at a line end',
      () => fixture('fail-truncated.json').split('\n').slice(0, -1).join('\n'),
      /package example.com\/gates\/strs has no final pass\/fail event/,
    ],
    ['empty.txt', () => fixture('empty.txt'), /empty/],
  ])('fails closed on %s', (_name, text, reason) => {
    const r = parseGoTestJson(text());
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  itFailsClosedOnGarbage(parseGoTestJson, [
    '',
    '{',
    'null',
    '<a',
    '[1,2]',
    '{"Action":1}',
    'ok  \tpkg\t0.1s',
    noise(4096),
  ]);
});
