import fs from 'node:fs';
import path from 'node:path';
import { judgeTestEdit } from '../../../../src/core/verification/benign-test-edit';

const fixture = (repo: string, rel: string): string =>
  fs.readFileSync(path.join(__dirname, '../../../fixtures/real-repos', repo, rel), 'utf8');
const MS = ['src/format.test.ts', fixture('ms', 'src/format.test.ts')] as const;
const SC = ['test/scule.test.ts', fixture('scule', 'test/scule.test.ts')] as const;
const SV = ['tests/test_semver.py', fixture('semver', 'tests/test_semver.py')] as const;
const GV = ['version_test.go', fixture('goversion', 'version_test.go')] as const;

const edit = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`not found: ${from}`);
  return text.replace(from, to);
};
const MS_WEEK =
  "  it('should support weeks', () => {\n    expect(format(1 * 7 * 24 * 60 * 60 * 1000, { long: true })).toBe('1 week');";
const NEW_IT =
  "  it('should round weeks', () => {\n    expect(format(10 * 24 * 60 * 60 * 1000, { long: true })).toBe('1 week');\n  });\n\n";

describe('judgeTestEdit: honest edits (no human needed)', () => {
  it.each([
    ['jest: a new it()', MS, (t: string) => edit(t, MS_WEEK, NEW_IT + MS_WEEK)],
    [
      'jest: a test renamed',
      MS,
      (t: string) =>
        edit(
          t,
          "it('should support weeks', () => {\n    expect(format(1 * 7",
          "it('formats weeks (long)', () => {\n    expect(format(1 * 7",
        ),
    ],
    [
      'vitest: a new it.each row',
      SC,
      (t: string) =>
        edit(
          t,
          '    ["this-IS-aTitle", "This is a Title"],\n',
          '    ["this-IS-aTitle", "This is a Title"],\n    ["a-tale-OF-two", "A Tale of Two"],\n',
        ),
    ],
    [
      'pytest: a new parametrize row',
      SV,
      (t: string) =>
        edit(
          t,
          '        ((0, 1, 0), (0, 1, 1)),\n',
          '        ((0, 1, 0), (0, 1, 1)),\n        ((0, 2, 0), (0, 2, 1)),\n',
        ),
    ],
    [
      'go: a new row of a table test',
      GV,
      (t: string) =>
        edit(
          t,
          '\t\t{"1.2-beta", "1.2-beta", false},\n',
          '\t\t{"1.2-beta", "1.2-beta", false},\n\t\t{"1.0.0", "1.0.0", false},\n',
        ),
    ],
    [
      'jest: a test moved within its file',
      MS,
      (t: string) => {
        const block = /\n {2}it\('should support weeks'[\s\S]*?\n {2}\}\);\n/.exec(t)![0];
        return edit(
          t.replace(block, '\n'),
          "describe('format(number)'",
          `describe('moved', () => {${block}});\n\ndescribe('format(number)'`,
        );
      },
    ],
  ] as const)('%s', (_what, [file, text], change) => {
    const v = judgeTestEdit(file, text, change(text));
    expect(v.why).toBeUndefined();
    expect(v.benign).toBe(true);
  });
});

describe('judgeTestEdit: edits a human must see', () => {
  it.each([
    ['jest: an expectation changed', MS, (t: string) => edit(t, ".toBe('1 week');", ".toBe('7 days');")],
    ['jest: a test skipped', MS, (t: string) => edit(t, "it('should support weeks'", "it.skip('should support weeks'")],
    [
      'jest: a test removed',
      MS,
      (t: string) => t.replace(/\n {2}it\('should support weeks'[\s\S]*?\n {2}\}\);\n/, '\n'),
    ],
    [
      'jest: a guard added inside a test',
      MS,
      (t: string) => edit(t, MS_WEEK, MS_WEEK.replace('{\n', '{\n    if (Date.now() > 0) return;\n')),
    ],
    ['jest: a mock added', MS, (t: string) => "jest.mock('./index');\n" + t],
    [
      'vitest: a row changed',
      SC,
      (t: string) => edit(t, '["this-IS-aTitle", "This is a Title"]', '["this-IS-aTitle", "This Is A Title"]'),
    ],
    [
      // The line holding the test's title changed, yet the title stayed: no rename, a filtered table.
      'vitest: the table of a test.each filtered',
      SC,
      (t: string) => edit(t, '  ])("%s => %s"', '  ].filter(([input]) => !/IS/.test(input)))("%s => %s"'),
    ],
    ['pytest: a row removed', SV, (t: string) => edit(t, '        ((0, 1, 0), (0, 1, 1)),\n', '')],
    [
      'pytest: an xfail added',
      SV,
      (t: string) =>
        edit(t, 'def test_should_fail_compatible_match', '@pytest.mark.xfail\ndef test_should_fail_compatible_match'),
    ],
    [
      'go: a row changed',
      GV,
      (t: string) => edit(t, '\t\t{"1.2-beta", "1.2-beta", false},\n', '\t\t{"1.2-beta", "1.2-beta", true},\n'),
    ],
    ['go: a TestMain added', GV, (t: string) => t + '\nfunc TestMain(m *testing.M) { m.Run(); os.Exit(0) }\n'],
  ] as const)('%s', (_what, [file, text], change) => {
    const v = judgeTestEdit(file, text, change(text));
    expect(v.benign).toBe(false);
    expect(v.why).toBeTruthy();
  });

  it('never calls a deleted file benign', () => {
    expect(judgeTestEdit(MS[0], MS[1], undefined)).toMatchObject({ benign: false, why: 'the file was deleted' });
  });
});

describe('judgeTestEdit: a row moved between tables', () => {
  it('is not a move of a test: a human must see it', () => {
    const [file, text] = SV;
    const moved = edit(text, '        ((0, 1, 0), (0, 1, 1)),\n', '').replace(
      '        ((0, 1, 0), (0, 1, 0)),\n',
      '        ((0, 1, 0), (0, 1, 0)),\n        ((0, 1, 0), (0, 1, 1)),\n',
    );
    expect(moved).not.toBe(edit(text, '        ((0, 1, 0), (0, 1, 1)),\n', ''));
    expect(judgeTestEdit(file, text, moved).benign).toBe(false);
  });
});
