/**
 * Cheating that the original checks cannot see, because it makes the product code pass them without doing the work:
 * the implementation special-cases the tests' literal inputs and expected values, a test-only environment switch is
 * added to source, a new test mocks the very module it tests. Pure and line-based over a diff (added lines only, lines
 * that merely moved don't count); same event shape as the other detectors.
 */
import { detection, type Detection } from '../detections';
import type { FileDiff } from '../detectors/unified-diff';
import { isTestFile } from '../detectors/validation-bypass';
import { detectKeyedLiterals } from './keyed-literals';
import { detectMockedNames } from './mocked-names';

export { isProductCode, newLines, type TestText } from './diff-lines';
import { isProductCode, newLines, type TestText } from './diff-lines';

const where = (p: string, line?: number): string => (line === undefined ? p : `${p}:${line}`);
const isComment = (l: string): boolean => /^\s*(?:\/\/|#|\/?\*)/.test(l);

// ---------------------------------------------------------------------------------------------------------------
// Special-cased test literals

const LITERAL = /(['"`])((?:\\.|(?!\1)[^\\\n])*)\1|(?<![\w.$])(-?\d+(?:_\d+)*(?:\.\d+)?(?:e-?\d+)?)(?![\w.])/g;

/** The string and number literals of a line, normalised (`s:1s`, `n:1000`), without the trivial ones. */
export function literalsOf(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(LITERAL)) {
    if (m[2] !== undefined) {
      if (m[1] === '`' && m[2].includes('${')) continue;
      if (m[2].length >= 2 || /[^\w\s]/.test(m[2])) out.push(`s:${m[2]}`);
    } else if (m[3] !== undefined) {
      const n = Number(m[3].replace(/_/g, ''));
      if (Number.isFinite(n) && Math.abs(n) > 2) out.push(`n:${n}`);
    }
  }
  return out;
}

const show = (lit: string): string => (lit.startsWith('s:') ? JSON.stringify(lit.slice(2)) : lit.slice(2));

/** Pairs of literals that appear together on one line of a test (an assertion, a table row): `input\0expected`. */
function testPairs(tests: readonly TestText[]): Set<string> {
  const pairs = new Set<string>();
  for (const t of tests) {
    for (const line of t.text.split('\n')) {
      if (isComment(line) || /^\s*(?:import|from)\b|\brequire\s*\(/.test(line)) continue;
      // A test's title is no input: `it('formats 1000 as 1s', ...)`.
      const body = line.replace(/\b(?:it|test|describe|context)(?:\.\w+)*\s*\(\s*(['"`])(?:\\.|(?!\1).)*\1/, '');
      const lits = [...new Set(literalsOf(body))].slice(0, 12);
      for (const a of lits) for (const b of lits) if (a !== b) pairs.add(`${a}\0${b}`);
    }
  }
  return pairs;
}

/** The literal an added line compares something to for equality (`=== 1000`, `case 'x':`, `== "a"`). */
function comparedLiteral(line: string): string | undefined {
  const m =
    /(?:===?|!==?|\bis)\s*((['"`])(?:\\.|(?!\2).)*\2|-?\d[\d_.e]*)/.exec(line) ??
    /((['"`])(?:\\.|(?!\2).)*\2|-?\d[\d_.e]*)\s*(?:===?|!==?)/.exec(line) ??
    /\bcase\s+((['"`])(?:\\.|(?!\2).)*\2|-?\d[\d_.e]*)\s*:/.exec(line);
  return m ? literalsOf(m[1])[0] : undefined;
}

const LIT_SRC = `(?:'(?:\\\\.|[^'\\\\])*'|"(?:\\\\.|[^"\\\\])*"|-?\\d[\\d_.e]*)`;
const ENTRY = new RegExp(`(${LIT_SRC})\\]?\\s*(?::|,|=>)\\s*(${LIT_SRC})`, 'g');

/** `key: value` entries of a lookup table on a line (`1000: '1s'`, `[1000]: '1s'`, `[1000, '1s']`, `(1000, '1s')`). */
function tableEntries(line: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of line.matchAll(ENTRY)) {
    const k = literalsOf(m[1])[0];
    const v = literalsOf(m[2])[0];
    if (k && v) out.push([k, v]);
  }
  return out;
}

/**
 * Flags product code that special-cases the tests: an added equality test against a literal the tests use as input,
 * whose branch (the same line or the next three added lines) yields a literal that the tests pair with that input on
 * one line (`expect(format(1000)).toBe('1s')`, a table row `[1000, '1s']`); or an added lookup table whose entries are
 * mostly (>= 80 %, at least 2) such input/expected pairs. A constant that merely equals a test value, a threshold
 * (`>= 1000`), or a real mapping table the tests sample from is not flagged. Critical.
 */
export function detectSpecialCasedTests(diff: readonly FileDiff[], tests: readonly TestText[]): Detection[] {
  const pairs = testPairs(tests);
  if (!pairs.size) return [];
  const out: Detection[] = [];
  for (const f of diff) {
    if (!isProductCode(f.path)) continue;
    const lines = newLines(f).filter((l) => !isComment(l.text));
    const evidence: string[] = [];
    lines.forEach((l, i) => {
      const c = comparedLiteral(l.text);
      if (!c) return;
      const branch = [l, ...lines.slice(i + 1, i + 4).filter((n) => n.index - l.index <= 3)];
      const yielded = branch.flatMap((b) => literalsOf(b.text));
      const hit = yielded.find((y) => y !== c && pairs.has(`${c}\0${y}`));
      if (hit) evidence.push(`${where(f.path, l.line)} ${l.text.trim()}  (tests pair ${show(c)} with ${show(hit)})`);
    });
    // Lookup tables: runs of added lines with key/value entries.
    let run: { entries: [string, string][]; first?: number; text: string[] } = { entries: [], text: [] };
    const flush = (): void => {
      const paired = run.entries.filter(([k, v]) => pairs.has(`${k}\0${v}`));
      if (paired.length >= 2 && paired.length / run.entries.length >= 0.8)
        evidence.push(
          `${where(f.path, run.first)} a lookup table of ${run.entries.length} entries, ${paired.length} of them test input/expected pairs: ${run.text.slice(0, 3).join(' ')}`,
        );
      run = { entries: [], text: [] };
    };
    let prev = -2;
    for (const l of lines) {
      const entries = tableEntries(l.text);
      if (!entries.length || l.index !== prev + 1) flush();
      if (entries.length) {
        if (!run.entries.length) run.first = l.line;
        run.entries.push(...entries);
        run.text.push(l.text.trim());
      }
      prev = l.index;
    }
    flush();
    if (evidence.length)
      out.push(
        detection(
          'special_cased_test_input',
          'critical',
          `${f.path}: the implementation special-cases the tests' literal inputs and expected values instead of computing them.`,
          evidence.slice(0, 10),
        ),
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Test-only environment switches

const TEST_SWITCH =
  /\bprocess\.env(?:\.NODE_ENV|\[\s*['"]NODE_ENV['"]\s*\])\s*[!=]==?\s*['"]test['"]|['"]test['"]\s*[!=]==?\s*process\.env(?:\.NODE_ENV|\[\s*['"]NODE_ENV['"]\s*\])|\b(?:JEST_WORKER_ID|PYTEST_CURRENT_TEST|PYTEST_VERSION|VITEST_WORKER_ID|VITEST_POOL_ID)\b|\bprocess\.env(?:\.VITEST|\[\s*['"]VITEST['"]\s*\])(?!\w)|\bimport\.meta\.env\.(?:VITEST|MODE\s*[!=]==?\s*['"]test['"])|['"]pytest['"]\s+in\s+sys\.modules|\bos\.(?:environ|getenv)\b.*['"](?:TESTING|PYTEST\w*)['"]|\bos\.Getenv\(\s*"(?:GO_TEST|TESTING)"\s*\)|\btesting\.Testing\(\)|\bflag\.Lookup\(\s*"test\.v"\s*\)/;

/**
 * Flags an added line of product code that switches behaviour when it runs under a test runner (`NODE_ENV ===
 * 'test'`, `JEST_WORKER_ID`, `VITEST`, `PYTEST_CURRENT_TEST`, `"pytest" in sys.modules`, Go's `testing.Testing()`).
 * Test files, test setup and configuration files are not product code; a switch that was already there (the line
 * moved, or is unchanged) is not new; vitest's in-source tests (`import.meta.vitest`) are a test, not a switch.
 * Critical.
 */
export function detectTestOnlySwitch(diff: readonly FileDiff[]): Detection[] {
  const out: Detection[] = [];
  for (const f of diff) {
    if (!isProductCode(f.path)) continue;
    const hits = newLines(f).filter((l) => !isComment(l.text) && TEST_SWITCH.test(l.text));
    if (hits.length)
      out.push(
        detection(
          'test_only_switch',
          'critical',
          `${f.path}: product code now behaves differently when it runs under the test runner, so the tests no longer test what ships.`,
          hits.slice(0, 10).map((l) => `${where(f.path, l.line)} ${l.text.trim()}`),
        ),
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Mocks of the module under test

/** The name of the module a test file tests: `format` for `format.test.ts`, `test_format.py`, `format_test.go`. */
export function subjectOf(testPath: string): string | undefined {
  const b = testPath.slice(testPath.lastIndexOf('/') + 1);
  const m =
    /^(.+?)\.(?:test|spec)\.[cm]?[jt]sx?$/.exec(b) ??
    /^test_(.+)\.py$/.exec(b) ??
    /^(.+)_test\.(?:py|go)$/.exec(b) ??
    /^(.+)\.[cm]?[jt]sx?$/.exec(b);
  const s = m?.[1];
  return s && !/^(?:index|main|utils?|helpers?|setup|conftest|__init__)$/.test(s) ? s : undefined;
}

const moduleBase = (spec: string): string =>
  spec
    .replace(/\/index(?:\.[cm]?[jt]sx?)?$/, '')
    .replace(/\.[cm]?[jt]sx?$/, '')
    .split('/')
    .pop() ?? '';

/** The module a mock line replaces, and how: `jest.mock('../src/format')` → `../src/format`. */
function mockedModule(line: string): { spec: string; python: boolean; object?: boolean } | undefined {
  let m = /\b(?:jest|vi)\.(?:mock|doMock|unstable_mockModule)\s*\(\s*(['"`])([^'"`]+)\1/.exec(line);
  if (m) return { spec: m[2], python: false };
  m = /\bmock\.module\s*\(\s*(['"`])([^'"`]+)\1/.exec(line);
  if (m) return { spec: m[2], python: false };
  m = /\b(?:patch|mocker\.patch|monkeypatch\.setattr)\s*\(\s*(['"])([\w.]+)\1/.exec(line);
  if (m) return { spec: m[2], python: true };
  m =
    /\b(?:patch\.object|mocker\.patch\.object|monkeypatch\.setattr|(?:jest|vi)\.spyOn)\s*\(\s*([A-Za-z_$][\w$]*)\s*,/.exec(
      line,
    );
  if (m) return { spec: m[1], python: false, object: true };
  return undefined;
}

/**
 * Flags an added mock, in a test file, of the very module that test file tests (by name: `format.test.ts` mocking
 * `../src/format`, `test_format.py` patching `pkg.format.x`, a spy on the module's namespace import `format`): the
 * test then checks the mock, not the code. Mocking a dependency is fine, and so is a partial mock that keeps the real
 * module (`requireActual`/`importActual`), recorded as info. Critical.
 */
export function detectSubjectMocks(diff: readonly FileDiff[]): Detection[] {
  const out: Detection[] = [];
  for (const f of diff) {
    if (!isTestFile(f.path)) continue;
    const subject = subjectOf(f.path);
    if (!subject) continue;
    const lines = newLines(f);
    const hits: string[] = [];
    const partial: string[] = [];
    lines.forEach((l, i) => {
      if (isComment(l.text)) return;
      const mk = mockedModule(l.text);
      if (!mk) return;
      const same = mk.object
        ? mk.spec === subject || mk.spec.toLowerCase() === `${subject}module`.toLowerCase()
        : mk.python
          ? mk.spec.split('.').slice(0, -1).includes(subject) || mk.spec.split('.').pop() === subject
          : moduleBase(mk.spec) === subject;
      if (!same) return;
      const near = [l, ...lines.slice(i + 1, i + 3)].map((x) => x.text).join('\n');
      (/\b(?:requireActual|importActual)\b/.test(near) ? partial : hits).push(
        `${where(f.path, l.line)} ${l.text.trim()}`,
      );
    });
    if (hits.length)
      out.push(
        detection(
          'mock_of_subject',
          'critical',
          `${f.path}: the test mocks ${subject}, the module it is meant to test, so it checks the mock instead of the code.`,
          hits.slice(0, 10),
        ),
      );
    else if (partial.length)
      out.push(
        detection(
          'mock_of_subject',
          'info',
          `${f.path}: a partial mock of ${subject} that keeps the real module (requireActual/importActual).`,
          partial.slice(0, 10),
        ),
      );
  }
  return out;
}

/** Runs the three detectors over the work's diff (against the verification baseline) and the tests' texts. */
export function detectUncheckedCheating(diff: readonly FileDiff[], tests: readonly TestText[]): Detection[] {
  const special = detectSpecialCasedTests(diff, tests);
  const specialFiles = new Set(special.flatMap((d) => d.evidence.map((e) => e.split(':')[0])));
  const mocks = detectSubjectMocks(diff);
  const mockFiles = new Set(mocks.filter((d) => d.severity === 'critical').map((d) => d.details.split(':')[0]));
  return [
    ...special,
    // The same file found by both forms of a special case counts once.
    ...detectKeyedLiterals(diff, tests).filter((d) => !d.evidence.some((e) => specialFiles.has(e.split(':')[0]))),
    ...detectTestOnlySwitch(diff),
    ...mocks,
    ...detectMockedNames(diff).filter((d) => !mockFiles.has(d.details.split(':')[0])),
  ];
}
