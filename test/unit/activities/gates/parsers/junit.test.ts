import { parseJunitXml, parseXml } from '../../../../../src/activities/gates/parsers/junit';
import { fixturesOf, itFailsClosedOnGarbage, noise } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('junit');

describe('parseJunitXml', () => {
  it.each([
    ['pytest-pass.xml', { total: 7, passed: 6, failed: 0, skipped: 1 }, []],
    // pytest's xfail is <skipped>, its xpass a plain testcase, its fixture error <error>.
    [
      'pytest-fail.xml',
      { total: 12, passed: 5, failed: 5, skipped: 2 },
      [
        'tests.test_calc::test_div_wrong',
        'tests.test_calc::test_div_by_zero',
        'tests.test_calc.TestParse::test_float',
        'tests.test_calc.TestParse::test_digits[x<y>&z]',
        'tests.test_calc::test_uses_broken',
      ],
    ],
    ['pytest-collection-error.xml', { total: 1, passed: 0, failed: 1, skipped: 0 }, ['tests.test_broken_import']],
    // jest-junit repeats the full title as classname: the name is not doubled.
    ['jest-junit-fail.xml', { total: 6, passed: 4, failed: 1, skipped: 1 }, ['math failures adds & compares <wrong>']],
  ])('reads the counts and failing names of %s', (file, counts, names) => {
    const r = parseJunitXml(fixture(file));
    expect(r.parsed).toBe(true);
    expect(r.tests).toMatchObject({ ...counts, failedNames: names });
    expect(r.tests?.ids).toHaveLength(counts.total);
    expect(r.errors).toBe(counts.failed);
  });

  it('gives every testcase an id, parametrized ones included', () => {
    expect(parseJunitXml(fixture('pytest-pass.xml')).tests?.ids).toEqual([
      'tests.test_math::test_add',
      'tests.test_math::test_add_negative',
      'tests.test_math.TestAdd::test_zero',
      'tests.test_math.TestAdd::test_table[1-1-2]',
      'tests.test_math.TestAdd::test_table[2-3-5]',
      'tests.test_math.TestAdd::test_table[10--10-0]',
      'tests.test_math::test_windows_paths',
    ]);
  });

  it('makes an item of each failure with its message and where it happened', () => {
    const pytest = parseJunitXml(fixture('pytest-fail.xml')).items;
    expect(pytest).toContainEqual({
      file: 'tests/test_calc.py',
      line: 27,
      code: 'failure',
      severity: 'error',
      message: 'tests.test_calc.TestParse::test_float: AssertionError: float parse drifted',
    });
    expect(pytest).toContainEqual({
      file: 'tests/test_calc.py',
      line: 51,
      code: 'error',
      severity: 'error',
      message: 'tests.test_calc::test_uses_broken: failed on setup with "RuntimeError: fixture exploded"',
    });
    expect(parseJunitXml(fixture('pytest-collection-error.xml')).items).toEqual([
      {
        file: 'tests/test_broken_import.py',
        line: 1,
        code: 'error',
        severity: 'error',
        message: 'tests.test_broken_import: collection failure',
      },
    ]);
    // jest-junit has no message attribute: the first line of the text, located in the test file, not node_modules.
    expect(parseJunitXml(fixture('jest-junit-fail.xml')).items).toEqual([
      {
        file: '/tmp/gates-js/test/fail.test.js',
        line: 4,
        column: 57,
        code: 'failure',
        severity: 'error',
        message: 'math failures adds & compares <wrong>: Error: expect(received).toBe(expected) // Object.is equality',
      },
    ]);
  });

  it('accepts a bare <testsuite> root and a failure in CDATA', () => {
    const xml =
      '<testsuite name="s" tests="2"><testcase classname="C" name="ok"/>' +
      '<testcase classname="C" name="bad" file="src/c.test.ts" line="9"><failure><![CDATA[boom <here> & there]]></failure></testcase></testsuite>';
    const r = parseJunitXml(xml);
    expect(r.tests).toEqual({
      total: 2,
      passed: 1,
      failed: 1,
      skipped: 0,
      failedNames: ['C::bad'],
      ids: ['C::ok', 'C::bad'],
    });
    expect(r.items).toEqual([
      { file: 'src/c.test.ts', line: 9, code: 'failure', severity: 'error', message: 'C::bad: boom <here> & there' },
    ]);
  });

  it('reads an empty report as zero tests', () => {
    expect(
      parseJunitXml('<?xml version="1.0"?>\n<testsuites name="jest tests" tests="0"></testsuites>\n').tests,
    ).toEqual({
      total: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      failedNames: [],
      ids: [],
    });
  });

  it.each([
    ['pytest-fail-truncated.xml', /truncated/],
    ['empty.txt', /empty/],
  ])('fails closed on %s', (file, reason) => {
    const r = parseJunitXml(fixture(file));
    expect(r.parsed).toBe(false);
    expect(r.parseError).toMatch(reason);
  });

  it('fails closed on XML that is not a test report', () => {
    expect(parseJunitXml('<coverage line-rate="1"/>').parseError).toMatch(/root element is <coverage>/);
  });

  itFailsClosedOnGarbage(parseJunitXml, [
    '',
    '{',
    'null',
    '<a',
    '<a>',
    '</a>',
    '<a></b>',
    '<a b=1/>',
    'text <a/>',
    '<a/><b/>',
    '<!-- x',
    noise(4096),
  ]);
});

describe('parseXml', () => {
  it('decodes entities in attributes and text, keeps CDATA verbatim and reads self-closing tags', () => {
    const r = parseXml(
      '<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "r.dtd">\n<!-- c -->\n<r a="&lt;x&gt; &amp; &quot;y&quot; &#10;&#x41;&apos;" b=\'1\'>t&amp;u<![CDATA[<&amp;>]]><e/><f k="v" /></r>\n',
    );
    expect(r).toEqual({
      ok: true,
      root: {
        name: 'r',
        attrs: { a: '<x> & "y" \nA\'', b: '1' },
        text: 't&u<&amp;>',
        children: [
          { name: 'e', attrs: {}, children: [], text: '' },
          { name: 'f', attrs: { k: 'v' }, children: [], text: '' },
        ],
      },
    });
  });

  it.each([
    ['<a><b></b>', /truncated: <a> not closed/],
    ['<a><b x="1', /truncated: tag <b> cut off/],
    ['<a><![CDATA[x', /truncated: CDATA/],
    ['<a></b>', /<a> closed by <\/b>/],
    ['', /no XML element/],
  ])('reports why %j is not a complete document', (text, error) => {
    const r = parseXml(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });
});
