import { parseEslintJson } from '../../../../../src/activities/gates/parsers/eslint';
import { fixturesOf, itNeverThrows } from '../../../../helpers/parser-fixtures';

const fixture = fixturesOf('eslint');
/** Where the fixtures were produced (see test/fixtures/gates/README.md). */
const SRC = '/tmp/ralph-gate-fixtures/eslint/fail/src';

/** file, line, column, rule, severity of each item. */
type Row = [string, number | undefined, number | undefined, string | undefined, string];
const rows = (text: string): Row[] =>
  parseEslintJson(text).items.map((i) => [i.file ?? '', i.line, i.column, i.code, i.severity]);

const FAIL_ROWS: Row[] = [
  [`${SRC}/add.js`, 2, 7, 'no-unused-vars', 'error'],
  [`${SRC}/add.js`, 2, 7, 'prefer-const', 'warning'],
  [`${SRC}/add.js`, 3, 9, 'eqeqeq', 'error'],
  [`${SRC}/add.js`, 4, 5, 'no-console', 'warning'],
  [`${SRC}/broken.js`, 2, 3, 'fatal', 'error'],
  [`${SRC}/util.js`, 1, 5, 'prefer-const', 'warning'],
  [`${SRC}/util.js`, 5, 28, 'no-undef', 'error'],
  // An unused eslint-disable directive is a warning without a rule id (reportUnusedDisableDirectives: "warn").
  [`${SRC}/util.js`, 7, 1, undefined, 'warning'],
];

describe('parseEslintJson', () => {
  it.each<[string, number, number, number, Row[]]>([
    ['pass.json', 0, 0, 0, []],
    ['fail.json', 4, 4, 1, FAIL_ROWS],
    ['fail-npm-run.txt', 4, 4, 1, FAIL_ROWS],
  ])('reads %s as %i error(s), %i warning(s), %i suppressed', (name, errors, warnings, suppressed, items) => {
    expect(parseEslintJson(fixture(name))).toMatchObject({ parsed: true, errors, warnings, suppressed });
    expect(rows(fixture(name))).toEqual(items);
  });

  it('keeps the rule message and the parsing error text', () => {
    const messages = parseEslintJson(fixture('fail.json')).items.map((i) => i.message);
    expect(messages[2]).toBe("Expected '===' and instead saw '=='.");
    expect(messages[4]).toBe("Parsing error: Unexpected keyword 'return'");
  });

  it('skips noise after the array', () => {
    const text = `${fixture('fail.json')}\nnpm error Lifecycle script \`lint\` failed with error: [1]\n`;
    expect(parseEslintJson(text)).toMatchObject({ parsed: true, errors: 4, warnings: 4 });
  });

  it.each<[string, string, RegExp]>([
    ['empty output', fixture('empty.txt'), /printed nothing/],
    ['JSON cut short', fixture('fail-truncated.json'), /does not parse .*truncated/],
    [
      'a crash printed as text (no config file)',
      fixture('no-config.txt'),
      /no JSON array .*Oops! Something went wrong/,
    ],
    ['an array of something else', '[{"file":"a.js"}]', /entry 0 has no filePath\/messages/],
    ['a message that is not an object', '[{"filePath":"a.js","messages":[1]}]', /not an object/],
  ])('fails closed on %s', (_case, text, reason) => {
    const out = parseEslintJson(text);
    expect(out).toMatchObject({ parsed: false, items: [] });
    expect(out.parseError).toMatch(reason);
  });

  itNeverThrows(parseEslintJson, {
    inputs: ['{', 'null', '[]', '[null]', '[[]]', '\u0000', null, undefined, 42],
    alphabet: '[]{}",:0129 \nfilePath messages severity null true',
    prefixesOf: { tool: 'eslint', name: 'fail-npm-run.txt', step: 37 },
  });

  it('reads an empty array (no files linted) as a clean run', () => {
    expect(parseEslintJson('[]')).toEqual({ parsed: true, errors: 0, warnings: 0, suppressed: 0, items: [] });
  });
});
