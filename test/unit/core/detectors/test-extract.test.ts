import { extractTests, staticInventoryDiff } from '../../../../src/core/detectors/test-extract';

const JS = `import { add } from '../src/math';

// it('commented out', () => {});
/* test('in a block comment', () => {}) */
const re = /it\\(/g;
const half = 10 / 2; // it('after a division', () => {})
const s = "it('in a string')";
class Fake {
  test() {
    return 1;
  }
}

describe('math', () => {
  it('adds two numbers', () => {
    expect(add(1, 2)).toBe(3);
  });

  it.skip("skipped but present", () => {
    expect(add(0, 0)).toBe(0);
  });

  xit(\`template title\`, () => {});
  it.todo('handles bigint');

  describe("edge cases", function () {
    test.each([[1, 1, 2], [2, 2, 4]])('adds %i + %i', (a, b, sum) => {
      expect(add(a, b)).toBe(sum);
    });
    it.each<[number, number]>([[1, 2]])('typed each %i', (a, b) => {
      expect(a < b).toBe(true);
    });
    it.each\`
      a    | b
      \${1} | \${2}
    \`('tagged $a', ({ a, b }) => {
      expect(a).toBeLessThan(b);
    });
    it(\`dynamic \${name}\`, () => {});
    it('handles ) and } in strings', async () => {
      expect('})').toContain(')');
    }, 10_000);
  });
});

test('top-level \\'quoted\\' test', () => {
  const obj = { test() { return 1; } };
  expect(obj.test()).toBe(1);
});
`;

const PY = `import pytest
import unittest


def helper():
    return 1


def test_top_level():
    assert helper() == 1


@pytest.mark.skip(reason="later")
def test_skipped_but_present():
    """Docstring
def test_not_real():
    """
    assert True


async def test_async(client):
    await client.get("/")


def test_one_liner(): assert helper()


def test_multiline_signature(
    a,
    b,
):
    assert a != b


class TestLogin:
    def test_accepts_valid(self):
        assert login("a", "b")

    def helper_method(self):
        def test_nested_is_not_a_test():
            pass

    class TestNested:
        def test_deep(self):
            assert True


class LoginCase(unittest.TestCase):
    def test_unittest_style(self):
        self.assertTrue(True)


class Helpers:
    def test_not_collected(self):
        pass
`;

const GO = `package auth

import "testing"

func helper() int { return 1 }

func TestValidate(t *testing.T) {
	if !Validate("a@b") {
		t.Fatal("want valid: }")
	}
	s := \`raw { string\`
	_ = s
}

func TestLogin_Fails(t *testing.T) {
	t.Skip("later")
}

func Testlowercase(t *testing.T) {}

func BenchmarkX(b *testing.B) {}

func TestWithSubtests(tt *testing.T) {
	tt.Run("sub", func(t *testing.T) {})
}
`;

const names = (file: string, content: string): string[] => extractTests(file, content).map((t) => t.id.name);
const bodyOf = (file: string, content: string, name: string): string | undefined =>
  extractTests(file, content).find((t) => t.id.name === name)?.body;

describe('extractTests', () => {
  it('lists JS/TS tests with suite titles, modifiers and .each, ignoring comments, strings and regexes', () => {
    expect(names('test/math.test.ts', JS)).toEqual([
      'math › adds two numbers',
      'math › skipped but present',
      'math › template title',
      'math › handles bigint',
      'math › edge cases › adds %i + %i',
      'math › edge cases › typed each %i',
      'math › edge cases › tagged $a',
      'math › edge cases › `dynamic ${name}`',
      'math › edge cases › handles ) and } in strings',
      "top-level 'quoted' test",
    ]);
    expect(extractTests('test/math.test.ts', JS).every((t) => t.id.file === 'test/math.test.ts')).toBe(true);
  });

  it.each<[string, string]>([
    ['math › adds two numbers', '() => {\n    expect(add(1, 2)).toBe(3);\n  }'],
    ['math › handles bigint', ''],
    [
      'math › edge cases › handles ) and } in strings',
      "async () => {\n      expect('})').toContain(')');\n    }, 10_000",
    ],
    ['math › edge cases › adds %i + %i', '(a, b, sum) => {\n      expect(add(a, b)).toBe(sum);\n    }'],
  ])('gives the body of the JS test %j without its title', (name, body) => {
    expect(bodyOf('test/math.test.ts', JS, name)).toBe(body);
  });

  it('lists pytest tests: module functions, Test* classes, TestCase subclasses', () => {
    expect(names('tests/test_login.py', PY)).toEqual([
      'test_top_level',
      'test_skipped_but_present',
      'test_async',
      'test_one_liner',
      'test_multiline_signature',
      'TestLogin::test_accepts_valid',
      'TestLogin::TestNested::test_deep',
      'LoginCase::test_unittest_style',
    ]);
  });

  it.each<[string, string]>([
    ['test_top_level', '    assert helper() == 1'],
    ['test_skipped_but_present', '    """Docstring\ndef test_not_real():\n    """\n    assert True'],
    ['test_one_liner', '(): assert helper()'],
    ['test_multiline_signature', '    assert a != b'],
    ['TestLogin::test_accepts_valid', '        assert login("a", "b")'],
  ])('gives the body of the Python test %j', (name, body) => {
    expect(bodyOf('tests/test_login.py', PY, name)).toBe(body);
  });

  it('lists Go TestXxx functions with their brace block, strings and raw strings respected', () => {
    expect(names('auth/auth_test.go', GO)).toEqual(['TestValidate', 'TestLogin_Fails', 'TestWithSubtests']);
    expect(bodyOf('auth/auth_test.go', GO, 'TestValidate')).toBe(
      '\n\tif !Validate("a@b") {\n\t\tt.Fatal("want valid: }")\n\t}\n\ts := `raw { string`\n\t_ = s\n',
    );
  });

  it.each([
    ['a Go file that is not a test file', 'auth/auth.go', GO],
    ['a Markdown file', 'test/README.md', JS],
    ['an empty file', 'test/a.test.ts', ''],
  ])('finds nothing in %s', (_what, file, content) => {
    expect(extractTests(file, content)).toEqual([]);
  });

  it.each([
    ['an unterminated template', "it('kept', () => {});\nit('broken', () => { `oops ${ '"],
    ['an unterminated block comment', "it('kept', () => {});\n/* it('gone', () => {})"],
    ['unbalanced brackets', "it('kept', () => {});\ndescribe('x', () => { it('inner', () => { ((( "],
    ['an unterminated string and regex', "it('kept', () => {});\nconst a = 'oops\nconst r = /[/;\n"],
  ])('keeps the tests before %s and does not throw', (_what, content) => {
    expect(names('test/a.test.ts', content)[0]).toBe('kept');
  });

  it.each([
    ['test/math.test.ts', JS],
    ['tests/test_login.py', PY],
    ['auth/auth_test.go', GO],
  ])('never finds more tests in a truncated %s than in the whole file', (file, content) => {
    const all = extractTests(file, content).length;
    for (let cut = 0; cut <= content.length; cut++) {
      const found = extractTests(file, content.slice(0, cut));
      expect(found.length).toBeLessThanOrEqual(all);
    }
  });
});

const LOGIN = 'test/unit/auth/login.test.ts';
const src = (...tests: string[]): string => `describe('login', () => {\n${tests.join('\n')}\n});\n`;
const validEmail = "  it('validates email format', () => {\n    expect(validate('a@b')).toBe(true);\n  });";
const weakPw = "  it('rejects weak passwords', () => {\n    expect(strength('x')).toBe('weak');\n  });";
const logsIn = "  it('logs in', () => {\n    expect(login()).toBe(true);\n  });";

describe('staticInventoryDiff', () => {
  it('blocks tests deleted from a file, naming them', () => {
    const r = staticInventoryDiff([{ path: LOGIN, before: src(validEmail, weakPw, logsIn), after: src(logsIn) }]);
    expect(r.detection).toMatchObject({ type: 'test_deletion', verdict: 'BLOCK' });
    expect(r.detection.evidence).toEqual([
      `${LOGIN}: login › validates email format`,
      `${LOGIN}: login › rejects weak passwords`,
    ]);
  });

  it('blocks a deleted test file and a deleted Python or Go test', () => {
    const r = staticInventoryDiff([
      { path: LOGIN, before: src(logsIn) },
      { path: 'tests/test_login.py', before: PY, after: PY.replace(/\ndef test_top_level[^]*?\n\n\n/, '\n') },
      { path: 'auth/auth_test.go', before: GO, after: GO.replace(/func TestLogin_Fails[^}]*}\n/, '') },
    ]);
    expect(r.detection.verdict).toBe('BLOCK');
    expect(r.deleted.map((t) => `${t.file}: ${t.name}`)).toEqual([
      `${LOGIN}: login › logs in`,
      'tests/test_login.py: test_top_level',
      'auth/auth_test.go: TestLogin_Fails',
    ]);
  });

  it.each([
    ['in the same file', LOGIN],
    ['and moved to another file', 'test/unit/auth/email.test.ts'],
  ])('passes a test renamed %s with the same body', (_what, to) => {
    const renamed = validEmail.replace('validates email format', 'accepts a well-formed email');
    const r = staticInventoryDiff([
      { path: LOGIN, before: src(validEmail, logsIn), after: to === LOGIN ? src(renamed, logsIn) : src(logsIn) },
      ...(to === LOGIN ? [] : [{ path: to, after: src(renamed) }]),
    ]);
    expect(r.detection).toMatchObject({ type: 'test_inventory', verdict: 'PASS' });
    expect(r.renamed.map((m) => m.to)).toEqual([{ file: to, name: 'login › accepts a well-formed email' }]);
  });

  it('passes a test moved to another file under the same name', () => {
    const r = staticInventoryDiff([
      { path: LOGIN, before: src(validEmail, logsIn), after: src(logsIn) },
      { path: 'test/unit/auth/email.test.ts', before: undefined, after: src(validEmail) },
    ]);
    expect(r.detection.verdict).toBe('PASS');
    expect(r.moved).toHaveLength(1);
  });

  it('warns, not blocks, when an obsolete test is replaced by a new one in the same file', () => {
    const replacement =
      "  it('rejects passwords under 12 characters', () => {\n    expect(strength('short')).toBe('weak');\n  });";
    const r = staticInventoryDiff([{ path: LOGIN, before: src(weakPw, logsIn), after: src(replacement, logsIn) }]);
    expect(r.detection).toMatchObject({ type: 'test_replaced', severity: 'warning', verdict: 'WARN' });
    expect(r.deleted).toEqual([{ file: LOGIN, name: 'login › rejects weak passwords' }]);
  });

  it.each([
    ['a test that is only skipped (the bypass detector judges that)', src(validEmail.replace("it('", "it.skip('"))],
    ['a reformatted test', src(validEmail.replace(/\n\s*/g, ' '))],
    ['a new test', src(validEmail, logsIn)],
  ])('passes %s', (_what, after) => {
    const r = staticInventoryDiff([{ path: LOGIN, before: src(validEmail), after }]);
    expect(r.detection.verdict).toBe('PASS');
    expect(r.deleted).toEqual([]);
  });

  it('ignores files that are not test files', () => {
    const r = staticInventoryDiff([{ path: 'src/login.ts', before: src(validEmail, weakPw), after: '' }]);
    expect(r).toMatchObject({ deleted: [], added: [], detection: { verdict: 'PASS' } });
  });
});
