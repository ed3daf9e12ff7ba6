import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectValidationBypass } from '../../../../src/core/detectors/validation-bypass';
import { parseUnifiedDiff, type FileDiff } from '../../../../src/core/detectors/unified-diff';

const fixture = (name: string): FileDiff[] =>
  parseUnifiedDiff(readFileSync(join(__dirname, '../../../fixtures/diffs', name), 'utf8'));
const file = (path: string, added: string[], removed: string[] = []): FileDiff => ({ path, added, removed });
const T = 'test/unit/auth/login.test.ts';

// [type, path, removed lines, added lines]: each must yield exactly one detection of that type.
const positives: [string, string, string[], string[]][] = [
  ['skip_added', T, [], ["  it.skip('validates email', () => {"]],
  ['skip_added', 'src/a.spec.ts', [], ["describe.only('suite', () => {"]],
  ['skip_added', T, [], ["  xit('validates email', () => {"]],
  ['skip_added', T, [], ["  fit('validates email', () => {"]],
  ['skip_added', T, [], ["  test.todo('reject weak passwords');"]],
  ['skip_added', 'tests/test_login.py', [], ['@pytest.mark.skip(reason="flaky")']],
  ['skip_added', 'tests/test_login.py', [], ['    pytest.skip("later")']],
  ['skip_added', 'auth/login_test.go', [], ['\tt.Skip("broken")']],
  ['test_commented_out', T, [], ["  // it('should reject weak passwords', () => {"]],
  ['test_commented_out', T, [], ["// test.each([1, 2])('works %d', (n) => {"]],
  ['test_commented_out', 'tests/test_login.py', [], ['# def test_rejects_weak_passwords():']],
  ['ts_suppression', 'src/login.ts', [], ['  // @ts-ignore']],
  ['ts_suppression', 'src/login.ts', [], ['// @ts-nocheck']],
  ['ts_suppression', 'src/login.ts', [], ['    // @ts-expect-error wrong type on purpose']],
  ['ts_suppression', T, [], ['    // @ts-ignore']],
  ['eslint_disable_unjustified', 'src/cli.ts', [], ['  // eslint-disable-next-line no-console']],
  ['eslint_disable_unjustified', 'src/cli.ts', [], ['/* eslint-disable */']],
  [
    'eslint_disable_unjustified',
    'src/cli.ts',
    [],
    ['  foo(); // eslint-disable-line @typescript-eslint/no-explicit-any --'],
  ],
  ['any_added', 'src/login.ts', [], ['  return parse(input as any);']],
  ['any_added', 'src/login.ts', [], ['export function validate(email: any): boolean {']],
  ['any_added', 'src/view.tsx', [], ['  const rows: any[] = [];']],
  ['ci_bypass', 'package.json', [], ['    "test": "jest || true"']],
  ['ci_bypass', 'package.json', [], ['    "test": "jest --passWithNoTests"']],
  ['ci_bypass', 'package.json', [], ['    "test": "jest; exit 0"']],
  ['ci_bypass', '.github/workflows/ci.yml', [], ['      - run: npm test || exit 0']],
  ['ci_bypass', '.github/workflows/ci.yml', [], ['        continue-on-error: true']],
  ['ci_bypass', 'Makefile', [], ['\tpytest tests/ ; exit 0']],
  ['test_ignore_added', 'jest.config.js', [], ["  testPathIgnorePatterns: ['/test/unit/auth/'],"]],
  ['test_ignore_added', 'pytest.ini', [], ['addopts = --ignore=tests/test_login.py']],
  ['test_ignore_added', 'vitest.config.ts', [], ["    exclude: ['test/unit/auth/**'],"]],
  ['strict_disabled', 'tsconfig.json', [], ['    "strict": false,']],
  ['strict_disabled', 'src/config.ts', [], ['  strict: false,']],
  ['strict_disabled', 'tsconfig.json', [], ['    "noImplicitAny": false,']],
  ['coverage_threshold_lowered', 'jest.config.js', ['    global: { lines: 80 },'], ['    global: { lines: 60 },']],
  ['coverage_threshold_lowered', 'pyproject.toml', ['fail_under = 90'], ['fail_under = 85.5']],
  [
    'coverage_threshold_lowered',
    '.github/workflows/ci.yml',
    ['  - run: pytest --cov-fail-under=80'],
    ['  - run: pytest --cov-fail-under=0'],
  ],
  [
    'assertion_weakened',
    T,
    ["    expect(validate('a@b')).toBe(true);"],
    ["    expect(validate('a@b')).toBeDefined();"],
  ],
  ['assertion_weakened', T, ['    expect(user.name).toEqual("Ann");'], ['    expect(user.name).toBeTruthy();']],
  ['assertion_weakened', 'tests/test_login.py', ['    assert login(u) == "ok"'], ['    assert login(u)']],
  ['assertion_weakened', 'tests/test_calc.py', ['    assert add(1, 2) == 3'], ['    assert add(1, 2)']],
  [
    'assertion_weakened',
    'tests/test_calc.py',
    ['    assert add(1, 2) == 3, "1+2, surely"'],
    ['    assert add(1, 2), "ok"'],
  ],
  ['assertion_weakened', 'tests/test_csv.py', ['    assert split("a, b") in ROWS'], ['    assert split("a, b")']],
  ['assertion_weakened', 'tests/test_calc.py', ['    assert (div(6, 3) == 2)'], ['    assert div(6, 3)  # fine']],
  ['assertion_weakened', 'tests/test_calc.py', ['    assert {"a": f(1, 2)}[k] != 0'], ['    assert {"a": f(1, 2)}[k]']],
  ['assertion_weakened', T, ['    expect(res).toStrictEqual({ id: 1 });'], ['    expect(res).not.toBeNull();']],
];

describe('detectValidationBypass', () => {
  it.each(positives)('flags %s in %s (removed %j, added %j)', (type, path, removed, added) => {
    const found = detectValidationBypass([file(path, added, removed)]).filter(
      (d) => d.type !== 'assertion_count_decreased',
    );
    expect(found.map((d) => d.type)).toEqual([type]);
    const critical = !['ts_suppression', 'eslint_disable_unjustified', 'any_added'].includes(type);
    expect(found[0]).toMatchObject(
      critical ? { severity: 'critical', verdict: 'BLOCK' } : { severity: 'warning', verdict: 'WARN' },
    );
    expect(found[0].evidence.join('\n')).toContain(`${path} ${added[0].trim()}`);
  });

  it.each<[string, FileDiff]>([
    [
      'expects removed from a test',
      file(T, ['  expect(a).toBe(1);'], ['  expect(a).toBe(1);', '  expect(b).toBe(2);', '  expect(c).toBe(3);']),
    ],
    ['a Python test losing asserts', file('tests/test_x.py', [], ['    assert x == 1', '    self.assertEqual(y, 2)'])],
    [
      'a Go test losing t.Errorf',
      file('x/x_test.go', ['\t_ = got'], ['\tif got != 1 {', '\t\tt.Errorf("got %d", got)', '\t}']),
    ],
  ])('warns when the assertion count of %s goes down', (_what, diff) => {
    expect(detectValidationBypass([diff])).toEqual([
      expect.objectContaining({ type: 'assertion_count_decreased', severity: 'warning', verdict: 'WARN' }),
    ]);
  });

  it.each<[string, FileDiff]>([
    [
      'a `.skip` only in a removed line (the agent un-skipped a test)',
      file(T, ["  it('validates', () => {"], ["  it.skip('validates', () => {"]),
    ],
    ['a justified eslint-disable', file('src/cli.ts', ['  // eslint-disable-next-line no-console -- CLI output'])],
    [
      'a justified block eslint-disable',
      file('src/cli.ts', ['/* eslint-disable no-console -- this file is the CLI */']),
    ],
    ['`any` in a .d.ts shim', file('types/legacy.d.ts', ['  const value: any;', '  export default value as any;'])],
    [
      'a refactor that shrinks code without touching tests',
      file(
        'src/login.ts',
        ['export const ok = (s: string) => s.includes("@");'],
        ['export function ok(s: string): boolean {', '  return /@/.test(s);', '}'],
      ),
    ],
    [
      'lines that only moved (also in a test file)',
      file(
        T,
        ['  expect(a).toBe(1);', "  it.skip('x', () => {});"],
        ["  it.skip('x', () => {});", '  expect(a).toBe(1);'],
      ),
    ],
    [
      'a raised coverage threshold',
      file('jest.config.js', ['    global: { lines: 90 },'], ['    global: { lines: 80 },']),
    ],
    ['`lines:` outside a coverage config', file('src/report.ts', ['  lines: 10,'], ['  lines: 20,'])],
    ['`|| true` in application code', file('src/flags.ts', ['const on = flag || true;'])],
    ['`exit 0` in a plain shell script', file('scripts/release.sh', ['exit 0'])],
    ['`model.fit(` (not a focused test)', file('src/train.ts', ['model.fit(data);'])],
    ['a call of a product function named `fit`', file('src/trends.ts', ['  return fit(points);'])],
    ['a product function named `xit`', file('src/exit.ts', ['export const leave = () => xit(0);'])],
    [
      'a Python assert made stronger',
      file('tests/test_calc.py', ['    assert add(1, 2) == 3'], ['    assert add(1, 2)']),
    ],
    [
      'a Python assert on another call with commas',
      file('tests/test_calc.py', ['    assert add(1, 3)'], ['    assert add(1, 2) == 3']),
    ],
    ['a strong assertion replacing a weak one', file(T, ['  expect(x).toBe(3);'], ['  expect(x).toBeDefined();'])],
    ['a weak matcher on another subject', file(T, ['  expect(y).toBeDefined();'], ['  expect(x).toBe(3);'])],
    ['`strict: true`', file('tsconfig.json', ['    "strict": true,'])],
    [
      'an added test',
      file(T, ["  it('rejects weak passwords', () => {", "    expect(strength('1')).toBe('weak');", '  });']),
    ],
    ['tsconfig `exclude` (not a test config)', file('tsconfig.json', ['  "exclude": ["dist"]'])],
  ])('does not flag %s', (_what, diff) => {
    expect(detectValidationBypass([diff])).toEqual([]);
  });

  it.each<[string, FileDiff[]]>([
    [
      'a test moved to another file',
      [
        file(T, [], ["  it('divides', () => {", '    expect(div(6, 3)).toBe(2);', '  });']),
        file('test/unit/auth/division.test.ts', ["  it('divides', () => {", '    expect(div(6, 3)).toBe(2);', '  });']),
      ],
    ],
    [
      'a test file renamed (deleted and created)',
      [
        file('tests/test_calc.py', [], ['def test_add():', '    assert add(1, 2) == 3', '    assert add(0, 0) == 0']),
        file('tests/test_arith.py', ['def test_add():', '    assert add(1, 2) == 3', '    assert add(0, 0) == 0']),
      ],
    ],
  ])('does not count assertions as lost for %s', (_what, diff) => {
    expect(detectValidationBypass(diff)).toEqual([]);
  });

  it('warns once when the total across test files drops, naming the files that lost assertions', () => {
    const found = detectValidationBypass([
      file(T, ['  expect(a).toBe(1);'], ['  expect(a).toBe(1);', '  expect(b).toBe(2);', '  expect(c).toBe(3);']),
      file('test/b.test.ts', ['  expect(d).toBe(4);']),
      file('src/b.ts', [], ['  assert(x);']),
    ]);
    expect(found).toEqual([
      expect.objectContaining({
        type: 'assertion_count_decreased',
        verdict: 'WARN',
        details: `${T}: 1 fewer assertions in the diff's test files (2 removed, 1 added).`,
        evidence: [`${T} -2 +0 expect/assert`],
      }),
    ]);
  });

  it.each<[string, FileDiff]>([
    [
      'a skip under -short in a Go test that this diff adds',
      file('calc_test.go', [
        'func TestDivLarge(t *testing.T) {',
        '\tif testing.Short() {',
        '\t\tt.Skip("slow: skipped with -short")',
        '\t}',
        '\tfor i := 1; i < 1000000; i++ {',
        '\t}',
        '}',
      ]),
    ],
    [
      'a one-line conditional skip in a new Go test',
      file('calc_test.go', ['func TestSlow(t *testing.T) {', '\tif testing.Short() { t.Skip() }', '}']),
    ],
    [
      'a Go skip in the else branch of a new test',
      file('calc_test.go', [
        'func TestDB(t *testing.T) {',
        '\tif db != nil {',
        '\t\tuse(db)',
        '\t} else {',
        '\t\tt.Skip("no db")',
        '\t}',
        '}',
      ]),
    ],
    [
      'pytest.skip under an if in a new test method',
      file('tests/test_calc.py', [
        'class TestCalc:',
        '    def test_symlink(self, tmp_path):',
        '        if sys.platform == "win32":',
        '            pytest.skip("no symlinks")',
        '        assert link(tmp_path)',
      ]),
    ],
    [
      'a skipif decorator (multi-line) on a new test',
      file('tests/test_calc.py', [
        '@pytest.mark.skipif(',
        '    sys.platform == "win32",',
        '    reason="posix only",',
        ')',
        'def test_symlink(tmp_path):',
        '    assert link(tmp_path)',
      ]),
    ],
    [
      'a vitest skipIf on a new test',
      file(T, [
        "  it.skipIf(process.platform === 'win32')('uses symlinks', () => {",
        '    expect(link()).toBe(true);',
        '  });',
      ]),
    ],
  ])('records only as info (PASS) %s', (_what, diff) => {
    expect(detectValidationBypass([diff])).toEqual([
      expect.objectContaining({ type: 'skip_added', severity: 'info', verdict: 'PASS' }),
    ]);
  });

  it.each<[string, FileDiff, string]>([
    [
      'a conditional skip added to an existing Go test (its header is unchanged context)',
      file('auth/login_test.go', ['\tif testing.Short() {', '\t\tt.Skip("slow")', '\t}']),
      'auth/login_test.go t.Skip("slow")',
    ],
    [
      'a conditional pytest.skip added to an existing test',
      file('tests/test_login.py', ['    if os.environ.get("CI"):', '        pytest.skip("flaky on CI")']),
      'tests/test_login.py pytest.skip("flaky on CI")',
    ],
    [
      'a skipif decorator added to an existing test',
      file('tests/test_login.py', ['@pytest.mark.skipif(sys.platform == "win32", reason="posix")']),
      'tests/test_login.py @pytest.mark.skipif(sys.platform == "win32", reason="posix")',
    ],
    [
      'an unconditional skip in a new test',
      file('auth/login_test.go', ['func TestLogin(t *testing.T) {', '\tt.Skip("later")', '}']),
      'auth/login_test.go t.Skip("later")',
    ],
    [
      'a test rewritten with a skipIf (a test of that name was removed)',
      file(T, ["  it.skipIf(process.env.CI)('validates email', () => {"], ["  it('validates email', () => {"]),
      `${T} it.skipIf(process.env.CI)('validates email', () => {`,
    ],
  ])('blocks %s', (_what, diff, evidence) => {
    expect(detectValidationBypass([diff])).toEqual([
      expect.objectContaining({ type: 'skip_added', verdict: 'BLOCK', evidence: [evidence] }),
    ]);
  });

  it('blocks a conditional skip whose test header is not in the same run of added lines', () => {
    // Lines 10-12 add a new test; lines 30-32 add a conditional skip to an existing test further down.
    const diff: FileDiff = {
      path: 'calc_test.go',
      added: [
        'func TestNew(t *testing.T) {',
        '\t_ = New()',
        '}',
        '\tif testing.Short() {',
        '\t\tt.Skip("slow")',
        '\t}',
      ],
      removed: [],
      addedLineNumbers: [10, 11, 12, 30, 31, 32],
    };
    expect(detectValidationBypass([diff])).toEqual([
      expect.objectContaining({ type: 'skip_added', verdict: 'BLOCK', evidence: ['calc_test.go:31 t.Skip("slow")'] }),
    ]);
  });

  it('blocks a conditional skip in a test that only moved (not added)', () => {
    const header = 'func TestDiv(t *testing.T) {';
    const diff = file('calc_test.go', [header, '\tif testing.Short() {', '\t\tt.Skip("slow")', '\t}'], [header]);
    expect(detectValidationBypass([diff])).toEqual([expect.objectContaining({ type: 'skip_added', verdict: 'BLOCK' })]);
  });

  it('records `@ts-expect-error` in a test file (a type test) as info only (PASS)', () => {
    const found = detectValidationBypass([
      file('test/calc.types.test.ts', [
        '  // @ts-expect-error add takes numbers',
        "  expect(() => add('1')).toThrow();",
      ]),
    ]);
    expect(found).toEqual([expect.objectContaining({ type: 'ts_suppression', severity: 'info', verdict: 'PASS' })]);
  });

  it('cites the new-file line number when the diff has them', () => {
    const [d] = detectValidationBypass([{ path: T, added: ["it.only('x', f);"], removed: [], addedLineNumbers: [42] }]);
    expect(d.evidence).toEqual([`${T}:42 it.only('x', f);`]);
    expect(d.details).toMatch(/^test\/unit\/auth\/login\.test\.ts:42: /);
  });

  it('finds every cheat in a real diff of tests skipped, commented out and weakened', () => {
    const found = detectValidationBypass(fixture('cheat-tests.diff'));
    expect(found.map((d) => `${d.type} ${d.evidence[d.evidence.length - 1]}`)).toEqual([
      'eslint_disable_unjustified src/login.ts:1 // eslint-disable-next-line @typescript-eslint/no-explicit-any',
      'any_added src/login.ts:2 export function validate(email: any): boolean {',
      'ts_suppression src/login.ts:3 // @ts-ignore',
      'any_added src/login.ts:4 return /@/.test(email as any);',
      "skip_added test/unit/auth/login.test.ts:2 it.skip('should validate email format', () => {",
      "test_commented_out test/unit/auth/login.test.ts:5 // it('should reject weak passwords', () => {",
      "assertion_weakened test/unit/auth/login.test.ts:3 expect(validate('a@b')).toBeDefined();",
      'assertion_count_decreased test/unit/auth/login.test.ts -3 +1 expect/assert',
    ]);
  });

  it('finds every bypass in a real diff of CI and config changes', () => {
    const found = detectValidationBypass(fixture('cheat-ci.diff'));
    expect(found.map((d) => `${d.type} ${d.evidence[d.evidence.length - 1]}`)).toEqual([
      'ci_bypass .github/workflows/ci.yml:8 - run: npm test || exit 0',
      "test_ignore_added jest.config.js:2 testPathIgnorePatterns: ['/node_modules/', '/test/unit/auth/'],",
      'coverage_threshold_lowered jest.config.js:4 global: { lines: 50, branches: 70 },',
      'ci_bypass package.json:5 "test": "jest --passWithNoTests || true"',
    ]);
    expect(found.every((d) => d.verdict === 'BLOCK')).toBe(true);
  });

  it('finds nothing in a real diff that shrinks code and removes a skip', () => {
    expect(detectValidationBypass(fixture('benign-refactor.diff'))).toEqual([]);
  });
});
