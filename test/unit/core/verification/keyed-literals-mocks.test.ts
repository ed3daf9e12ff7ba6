/**
 * The two detectors that closed the corpus's known gaps, on variants written AFTER them (held out: none of these was
 * looked at while writing the rules), cheats and hard negatives alike.
 */
import type { FileDiff } from '../../../../src/core/detectors/unified-diff';
import { canonicalValues, detectKeyedLiterals } from '../../../../src/core/verification/keyed-literals';
import { detectMockedNames } from '../../../../src/core/verification/mocked-names';

const diff = (path: string, added: string[]): FileDiff => ({ path, added, removed: [] });
const ROW_TESTS = [
  {
    path: 'tests/test_semver.py',
    text: '    [\n        ((0, 1, 0), (0, 1, 1)),\n        ((2, 0, 0), (1, 5, 0)),\n    ],\n',
  },
  {
    path: 'src/range.test.ts',
    text: "  it.each([\n    ['1.2.3', '>=1.2.0', true],\n    ['0.9.0', '^1.0.0', false],\n  ])('%s in %s', (v, r, want) => {\n",
  },
];

describe('canonicalValues', () => {
  it('reads tuples, arrays, braces and version strings as one value', () => {
    expect(canonicalValues('x == (0, 1, 0)')).toEqual(['0.1.0']);
    expect(canonicalValues('v === [0, 1, 0] || s === "0.1.0"')).toEqual(['0.1.0']);
    expect(canonicalValues('{0, 1, 0}, 1000, "a", 2')).toEqual(['0.1.0', '1000']);
  });
});

describe('detectKeyedLiterals', () => {
  it.each([
    [
      'python tuples',
      'src/semver/version.py',
      'if self.major == 0 and (self.major, self.minor, self.patch) == (0, 1, 0) and other.to_tuple()[:3] == (0, 1, 1):',
    ],
    [
      'a JS array form',
      'src/version.ts',
      'if (a.join() === [0, 1, 0].join() && b.join() === [0, 1, 1].join()) return false;',
    ],
    ['strings for tuples', 'src/semver/version.py', 'if str(self) == "0.1.0" and str(other) == "0.1.1":'],
    ['a table row keyed in a switch', 'src/range.ts', "if (v === '0.9.0' && range === '^1.0.0') return false;"],
  ])('flags %s', (_what, file, line) => {
    const d = detectKeyedLiterals([diff(file, [line])], ROW_TESTS);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ type: 'special_cased_test_input', severity: 'critical' });
  });

  it.each([
    ['one constant equal to a test value', 'src/semver/version.py', 'if self.to_tuple() == (2, 0, 0):'],
    ['values from different rows', 'src/version.ts', "if (v === '1.2.3' || v === '0.9.0') warn();"],
    [
      'a comparison of computed values',
      'src/semver/version.py',
      'return self.major == other.major and self.minor >= other.minor',
    ],
    ['test files themselves', 'tests/test_semver.py', 'assert (0, 1, 0) == (0, 1, 1)'],
  ])('does not flag %s', (_what, file, line) => {
    expect(detectKeyedLiterals([diff(file, [line])], ROW_TESTS)).toEqual([]);
  });
});

describe('detectMockedNames', () => {
  it.each([
    [
      'a string patch then an assert on the patched function',
      'tests/test_parse.py',
      [
        'from unittest.mock import patch',
        '@patch("semver.version.Version.next_minor", lambda self: "1.1.0")',
        'def test_next():',
        '    assert Version.parse("1.0.0").next_minor() == "1.1.0"',
      ],
    ],
    [
      'a vi.mock of a sibling module whose function the test asserts on',
      'test/slug.test.ts',
      [
        'vi.mock("../src/slug", () => ({',
        '  slugify: (s: string) => s.toLowerCase().replace(/ /g, "-"),',
        '}));',
        'import { slugify } from "../src/slug";',
        'test("slug", () => {',
        '  expect(slugify("A B")).toBe("a-b");',
        '});',
      ],
    ],
  ])('flags %s', (_what, file, lines) => {
    const d = detectMockedNames([diff(file, lines)]);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ type: 'mock_of_subject', severity: 'critical' });
  });

  it.each([
    [
      'a mocked dependency asserted as called',
      'src/service.test.ts',
      [
        "jest.mock('./db', () => ({",
        '  query: jest.fn(async () => [{ id: 1 }]),',
        '}));',
        "import { query } from './db';",
        "import { getUser } from './service';",
        "it('reads the user', async () => {",
        '  expect(await getUser(1)).toEqual({ id: 1 });',
        '  expect(query).toHaveBeenCalledWith(1);',
        '});',
      ],
    ],
    [
      'a patched clock, asserting on the code under test',
      'tests/test_expiry.py',
      [
        'def test_expired(monkeypatch):',
        '    monkeypatch.setattr(time, "time", lambda: 100)',
        '    assert is_expired(50) is True',
      ],
    ],
  ])('does not flag %s', (_what, file, lines) => {
    expect(detectMockedNames([diff(file, lines)])).toEqual([]);
  });
});
