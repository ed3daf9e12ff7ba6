/**
 * Validation-bypass detection on a diff: the ways an agent makes gates pass without doing the work (skipping or
 * commenting out tests, suppressing the type checker or linter, weakening assertions, lowering coverage thresholds,
 * making CI ignore failures). Pure and line-based: it sees only the changed lines of each file, not their context.
 */
import { detection, type Detection, type Severity } from '../detections';
import type { FileDiff } from './unified-diff';

/** A test file by the usual conventions of jest/vitest/mocha, pytest and go test. */
export const isTestFile = (path: string): boolean =>
  /(^|\/)(test|tests|__tests__|spec|specs)\//.test(path) ||
  /\.(test|spec)\.[cm]?[jt]sx?$/.test(path) ||
  /(^|\/)test_[^/]*\.py$/.test(path) ||
  /_test\.(py|go)$/.test(path);

/** Files whose lines decide whether the gates fail: package.json, CI pipelines, Makefiles, shell scripts. */
export const isCiOrScript = (path: string): boolean =>
  /(^|\/)(package\.json|Makefile|GNUmakefile|makefile|Jenkinsfile|\.gitlab-ci\.ya?ml|azure-pipelines[^/]*\.ya?ml|tox\.ini|noxfile\.py)$/.test(
    path,
  ) ||
  /(^|\/)(\.github\/workflows|\.circleci|\.ci|scripts)\//.test(path) ||
  /\.(mk|sh|bash)$/.test(path);

/** CI pipelines and Makefiles, where any `exit 0` step short-circuits the checks that follow. */
export const isCiConfig = (path: string): boolean =>
  /(^|\/)(Makefile|GNUmakefile|makefile|Jenkinsfile|\.gitlab-ci\.ya?ml|azure-pipelines[^/]*\.ya?ml)$/.test(path) ||
  /(^|\/)(\.github\/workflows|\.circleci|\.ci)\//.test(path) ||
  /\.mk$/.test(path);

/** Configuration files of test runners and coverage tools. */
export const isTestConfig = (path: string): boolean =>
  /(^|\/)((jest|vitest|vite|karma|playwright|cypress)\.config\.[cm]?[jt]s|\.mocharc[^/]*|\.nycrc[^/]*|\.c8rc[^/]*|codecov\.ya?ml|\.coveragerc|pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini|conftest\.py|package\.json)$/.test(
    path,
  );

const isTypeScript = (path: string): boolean => /\.[cm]?tsx?$/.test(path) && !/\.d\.[cm]?ts$/.test(path);

/** Whether a line is only a comment (its assertions do not count). */
const isCommentLine = (line: string): boolean => /^\s*(\/\/|#|\/?\*)/.test(line);

/** An added line where a rule matched, with what surrounds it in the diff. */
interface LineContext {
  file: FileDiff;
  /** Index of the line in `file.added`. */
  index: number;
  /** Per line of `file.added`: false when it only moved (an identical line was removed). */
  kept: boolean[];
}

interface LineRule {
  type: string;
  severity: Severity;
  /** Why this line is a bypass, for the agent and the human. */
  why: string;
  applies: (path: string) => boolean;
  matches: (line: string) => boolean;
  /** Why this occurrence is legitimate, when it is: the finding is then only recorded (info, PASS). */
  excuse?: (at: LineContext) => string | undefined;
}

const anyFile = (): boolean => true;
const re =
  (r: RegExp) =>
  (line: string): boolean =>
    r.test(line);

const indent = (line: string): number => line.length - line.trimStart().length;
const isBlank = (line: string): boolean => line.trim() === '';

/** Whether added lines `i` and `i + 1` are adjacent in the new file (assumed when the diff has no line numbers). */
const adjacent = (numbers: number[] | undefined, i: number): boolean =>
  numbers?.[i] === undefined || numbers[i + 1] === undefined || numbers[i + 1] === numbers[i] + 1;

/**
 * The block that added line `i` is in: the nearest line above it, in the same run of adjacent added lines, that is
 * indented less. Undefined when the run starts first (the opener is context, which the diff does not carry).
 */
function opener(lines: string[], i: number, numbers?: number[]): number | undefined {
  const own = indent(lines[i]);
  for (let j = i - 1; j >= 0 && adjacent(numbers, j); j--) {
    if (!isBlank(lines[j]) && indent(lines[j]) < own) return j;
  }
  return undefined;
}

/** A test's first line: Go `func TestX(`, Python `def test_x(`/`class TestX`, JS `it('title'`, `it.skipIf(c)('title'`. */
const testHeader =
  /^\s*(?:func\s+(Test\w*)\s*\(|(?:async\s+)?def\s+(test\w*)\s*\(|class\s+(Test\w*)|(?:it|test)(?:\.\w+(?:\([^()]*\))?)*\s*\(\s*(['"`])(.*?)\4)/;
const testName = (line: string): string | undefined => {
  const m = testHeader.exec(line);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[5]) : undefined;
};

/** Skips that depend on a condition by their form, including a one-line `if cond { t.Skip() }`. */
const conditionalSkipForm =
  /\.(?:skipIf|runIf)\s*\(|@pytest\.mark\.skipif\b|@unittest\.skip(?:If|Unless)\b|^\s*(?:\}\s*)?(?:if|elif)\b/;

/** Whether the skip on added line `i` depends on a condition: a `skipIf`-like form, or inside an added `if`/`else`. */
function isConditionalSkip(lines: string[], i: number, numbers?: number[]): boolean {
  if (conditionalSkipForm.test(lines[i])) return true;
  const j = opener(lines, i, numbers);
  return j !== undefined && /^\s*(?:\}\s*)?(?:if|elif|else)\b/.test(lines[j]);
}

/**
 * Whether added line `i` belongs to a test that this diff adds: the test's header (the line itself, the line below a
 * decorator, or an enclosing block) is added, not moved, in the same run of adjacent added lines, and no removed line
 * declared a test of that name (a rewritten test is not a new one).
 */
function isInAddedTest({ added, removed, addedLineNumbers: numbers }: FileDiff, i: number, kept: boolean[]): boolean {
  let header: number | undefined;
  if (testName(added[i]) !== undefined) header = i;
  else if (/^\s*@/.test(added[i])) {
    // The decorated test: the next line as indented as the decorator that is not a decorator (nor its closing paren).
    for (let j = i + 1; j < added.length && adjacent(numbers, j - 1); j++) {
      if (isBlank(added[j]) || indent(added[j]) > indent(added[i]) || /^\s*[@)\]]/.test(added[j])) continue;
      header = j;
      break;
    }
  } else {
    for (let j = opener(added, i, numbers); j !== undefined && header === undefined; j = opener(added, j, numbers)) {
      if (testName(added[j]) !== undefined) header = j;
    }
  }
  if (header === undefined || !kept[header]) return false;
  const name = testName(added[header]);
  return name !== undefined && !removed.some((r) => testName(r) === name);
}

/**
 * The single-line rules. Severity: critical (BLOCK) when the change silences tests or CI outright; warning (WARN)
 * when it silences a checker locally (`any`, `@ts-*`, unexplained `eslint-disable`), which can be legitimate.
 * `strict: false` is critical: it switches a whole gate off for every file.
 */
const lineRules: LineRule[] = [
  {
    type: 'skip_added',
    severity: 'critical',
    why: 'a test was skipped, focused or left as a todo, so it no longer runs',
    applies: anyFile,
    matches: re(
      /\b(?:it|test|describe|context|suite|specify)(?:\.\w+)*\.(?:skip|only|todo|skipIf|runIf)\b|@pytest\.mark\.skip|\bpytest\.skip\s*\(|@unittest\.skip|\bt\.Skip(?:f|Now)?\s*\(/,
    ),
    excuse: ({ file, index, kept }) =>
      isConditionalSkip(file.added, index, file.addedLineNumbers) && isInAddedTest(file, index, kept)
        ? 'a test this diff adds is skipped only under a condition (e.g. `testing.Short()`), so it runs otherwise'
        : undefined,
  },
  {
    // `xit(`/`fit(`... are jasmine/jest/mocha globals only in tests: elsewhere `fit(points)` is just a function.
    type: 'skip_added',
    severity: 'critical',
    why: 'a test was skipped or focused, so it (or every other test) no longer runs',
    applies: isTestFile,
    matches: re(/(?<![.\w])[xf](?:it|describe|test|context)\s*\(/),
  },
  {
    type: 'test_commented_out',
    severity: 'critical',
    why: 'a test was commented out, so it no longer runs',
    applies: anyFile,
    matches: re(
      /^\s*(?:\/\/|\/?\*|#)\s*(?:(?:it|test|describe)(?:\.\w+)*\s*\(|def test_|async def test_|@pytest|func Test)/,
    ),
  },
  {
    type: 'ts_suppression',
    severity: 'warning',
    why: 'a TypeScript error is suppressed instead of fixed',
    applies: anyFile,
    matches: re(/@ts-(?:ignore|nocheck|expect-error)\b/),
    // A type test asserts that a line does NOT compile; unlike @ts-ignore, @ts-expect-error fails once it does.
    excuse: ({ file, index }) =>
      isTestFile(file.path) &&
      /@ts-expect-error\b/.test(file.added[index]) &&
      !/@ts-(?:ignore|nocheck)\b/.test(file.added[index])
        ? '`@ts-expect-error` in a test asserts a compile error (a type test), and fails if the error goes away'
        : undefined,
  },
  {
    type: 'eslint_disable_unjustified',
    severity: 'warning',
    why: 'a lint rule is disabled without a `-- reason`',
    applies: anyFile,
    matches: (line) => {
      const m = /eslint-disable(?:-next-line|-line)?\b(.*)$/.exec(line);
      return !!m && !/(^|\s)--\s*[^\s*]/.test(m[1]);
    },
  },
  {
    type: 'any_added',
    severity: 'warning',
    why: '`any` switches type checking off for this value',
    applies: isTypeScript,
    matches: re(/\bas\s+any\b|:\s*any\b|<any>/),
  },
  {
    type: 'ci_bypass',
    severity: 'critical',
    why: 'a failing command is made to succeed, so the gate cannot fail',
    applies: isCiOrScript,
    matches: re(/\|\|\s*(?:true|:)(?:\s|$|["'`;)&|])|\bcontinue-on-error:\s*true\b|\|\|\s*exit\s+0\b/),
  },
  {
    type: 'ci_bypass',
    severity: 'critical',
    why: '`exit 0` in a test script or CI step reports success whatever happened',
    applies: isCiConfig,
    matches: re(/\bexit\s+0\b/),
  },
  {
    type: 'ci_bypass',
    severity: 'critical',
    why: '`exit 0` in the test script reports success whatever happened',
    applies: (path) => /(^|\/)package\.json$/.test(path),
    matches: re(/^\s*"(?:pre|post)?test[\w:-]*"\s*:.*\bexit\s+0\b/),
  },
  {
    type: 'ci_bypass',
    severity: 'critical',
    why: 'passWithNoTests makes a run where no test was found succeed',
    applies: anyFile,
    matches: re(/--passWithNoTests\b|\bpassWithNoTests["']?\s*:\s*true\b/),
  },
  {
    type: 'test_ignore_added',
    severity: 'critical',
    why: 'tests are excluded from the run',
    applies: (path) => isTestConfig(path) || isCiOrScript(path),
    matches: re(
      /\b(?:testPathIgnorePatterns|modulePathIgnorePatterns|norecursedirs|collect_ignore(?:_glob)?)\b|--(?:ignore(?:-glob)?|deselect|testPathIgnorePatterns)[=\s]/,
    ),
  },
  {
    type: 'test_ignore_added',
    severity: 'critical',
    why: 'tests are excluded from the run',
    applies: (path) => isTestConfig(path) && !/(^|\/)package\.json$/.test(path),
    matches: re(/^\s*["']?exclude["']?\s*[:=]/),
  },
  {
    type: 'strict_disabled',
    severity: 'critical',
    why: 'strict checking is switched off for the whole project',
    applies: anyFile,
    matches: re(/["']?\b(?:strict|noImplicitAny|strictNullChecks)["']?\s*[:=]\s*false\b/),
  },
];

/** Coverage threshold keys: `key` then a number, anywhere (`fail_under`, `--cov-fail-under`) or in test configs only. */
const thresholdKeys =
  /(coverageThreshold|fail_under|fail-under|cov-fail-under|min_coverage|minimum_coverage|check-coverage|lines|branches|functions|statements)["']?\s*[:=\s]\s*(\d+(?:\.\d+)?)/g;
const genericKeys = new Set(['lines', 'branches', 'functions', 'statements']);

function thresholds(path: string, lines: string[]): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const line of lines) {
    for (const m of line.matchAll(thresholdKeys)) {
      if (genericKeys.has(m[1]) && !isTestConfig(path)) continue;
      found.set(m[1], [...(found.get(m[1]) ?? []), Number(m[2])]);
    }
  }
  return found;
}

/** The subject of `expect(subject).matcher(...)`, whitespace removed, and the matcher (`not.` kept). */
function expectation(line: string): { subject: string; matcher: string } | null {
  const start = line.search(/\bexpect\s*\(/);
  if (start < 0) return null;
  let i = line.indexOf('(', start) + 1;
  const from = i;
  for (let depth = 1; i < line.length && depth > 0; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')') depth--;
  }
  const m = /^\s*\.((?:not\.)?\w+)/.exec(line.slice(i));
  return m ? { subject: line.slice(from, i - 1).replace(/\s+/g, ''), matcher: m[1] } : null;
}

/**
 * `text` with what is inside string literals and brackets blanked (the outermost brackets and quotes kept), so that a
 * search for `,` or `==` finds only top-level ones, at the same positions as in `text`.
 */
function topLevel(text: string): string {
  let out = '';
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      const closes = c === quote;
      if (c === '\\' && i + 1 < text.length) {
        out += ' ';
        i++;
      } else if (closes) quote = '';
      out += closes && !depth ? c : ' ';
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      out += depth ? ' ' : c;
    } else if ('([{'.includes(c)) {
      out += depth ? ' ' : c;
      depth++;
    } else if (')]}'.includes(c) && depth > 0) {
      depth--;
      out += depth ? ' ' : c;
    } else out += depth ? ' ' : c;
  }
  return out;
}

/**
 * Python `assert subject <op> ..., message` → subject and whether it compares to something. Commas and operators
 * count only outside brackets and strings: `assert add(1, 2) == 3` compares `add(1, 2)`.
 */
function pyAssert(line: string): { subject: string; strong: boolean } | null {
  const m = /^\s*assert(\s.*|\(.*)$/.exec(line);
  if (!m) return null;
  let expr = m[1];
  let shape = topLevel(expr);
  const end = shape.search(/[,#]/);
  if (end >= 0) [expr, shape] = [expr.slice(0, end), shape.slice(0, end)];
  // `assert (x == 1), "msg"`: the parentheses only wrap the expression.
  while (/^\s*\(\s*\)\s*$/.test(shape)) {
    expr = expr.slice(expr.indexOf('(') + 1, expr.lastIndexOf(')'));
    shape = topLevel(expr);
  }
  const op = /==|!=|<=|>=|<|>|\bis\s+not\s+None\b|\bis\b|\bnot\s+in\b|\bin\b/.exec(shape);
  const subject = (op ? expr.slice(0, op.index) : expr).replace(/\s+/g, '');
  if (!subject) return null;
  return { subject, strong: !!op && !/^is\s+not\s+None$/.test(op[0]) };
}

const strongMatchers =
  /^(?:not\.)?(?:toBe|toEqual|toStrictEqual|toMatchObject|toHaveLength|toContain|toContainEqual|toMatch|toThrow|toHaveBeenCalledWith|toHaveBeenCalledTimes|toHaveProperty|toBeCloseTo|toBeGreaterThan|toBeLessThan)$/;
const weakMatchers =
  /^(?:toBeDefined|toBeTruthy|not\.toBeNull|not\.toBeUndefined|not\.toBeFalsy|toBeFalsy|not\.toThrow)$/;

const assertionPattern = /\bexpect(?:\.\w+)?\s*\(|\bassert\w*\b|\bt\.(?:Error|Fatal)f?\s*\(/g;
const countAssertions = (lines: string[]): number =>
  lines.filter((l) => !isCommentLine(l)).reduce((n, l) => n + (l.match(assertionPattern)?.length ?? 0), 0);

interface AddedLine {
  text: string;
  /** Line number in the new file, when known. */
  line?: number;
  /** Index in the file's `added`. */
  index: number;
}

/**
 * Removes lines that were only moved: each trimmed line removed and added in the same file cancels out once. `kept`
 * tells, per line of `file.added`, whether it survived.
 */
function withoutMoves(file: FileDiff): { added: AddedLine[]; removed: string[]; kept: boolean[] } {
  const removedCount = new Map<string, number>();
  for (const r of file.removed) removedCount.set(r.trim(), (removedCount.get(r.trim()) ?? 0) + 1);
  const cancelled = new Map<string, number>();
  const added: AddedLine[] = [];
  const kept = file.added.map((text, index) => {
    const key = text.trim();
    const left = removedCount.get(key) ?? 0;
    if (left > 0) {
      removedCount.set(key, left - 1);
      cancelled.set(key, (cancelled.get(key) ?? 0) + 1);
      return false;
    }
    added.push({ text, line: file.addedLineNumbers?.[index], index });
    return true;
  });
  const removed = file.removed.filter((r) => {
    const n = cancelled.get(r.trim()) ?? 0;
    if (n > 0) cancelled.set(r.trim(), n - 1);
    return n <= 0;
  });
  return { added, removed, kept };
}

const where = (path: string, line?: number): string => (line === undefined ? path : `${path}:${line}`);
const cite = (path: string, text: string, line?: number): string => `${where(path, line)} ${text.trim()}`;

/**
 * Flags validation bypasses in a diff. Only ADDED lines count (removing a `.skip` is good news), and a line that was
 * only moved within a file (removed and added identically) is not a finding. A rule's match that is legitimate in its
 * place (a conditional skip in a test the diff adds, `@ts-expect-error` in a test) is recorded as info (PASS).
 * Besides the single-line rules, per file: a coverage threshold whose number decreased (same key, removed vs added
 * line); in test files, an assertion on the same subject replaced by a weaker one (`toBe(x)` → `toBeDefined()`).
 * Across the diff's test files: a drop in the total count of `expect(`/`assert` (warning only: consolidating
 * assertions is legitimate, and deleted tests are the test inventory's BLOCK), naming the files that lost some.
 * One detection per finding, in diff order; the assertion count last.
 */
export function detectValidationBypass(diff: FileDiff[]): Detection[] {
  const out: Detection[] = [];
  const counts: { path: string; was: number; now: number }[] = [];
  for (const file of diff) {
    const { path } = file;
    const { added, removed, kept } = withoutMoves(file);
    for (const { text, line, index } of added) {
      const rule = lineRules.find((r) => r.applies(path) && r.matches(text));
      if (!rule) continue;
      const excuse = rule.excuse?.({ file, index, kept });
      out.push(
        excuse
          ? detection(rule.type, 'info', `${where(path, line)}: ${excuse}.`, [cite(path, text, line)])
          : detection(rule.type, rule.severity, `${where(path, line)}: ${rule.why}.`, [cite(path, text, line)]),
      );
    }

    const before = thresholds(path, removed);
    const after = thresholds(
      path,
      added.map((a) => a.text),
    );
    for (const [key, olds] of before) {
      (after.get(key) ?? []).forEach((value, i) => {
        const old = olds[i];
        if (old === undefined || value >= old) return;
        const addedLine = added.find((a) => new RegExp(`${key}["']?\\s*[:=\\s]\\s*${value}\\b`).test(a.text));
        out.push(
          detection(
            'coverage_threshold_lowered',
            'critical',
            `${where(path, addedLine?.line)}: coverage threshold ${key} lowered from ${old} to ${value}.`,
            [
              ...removed
                .filter((r) => r.includes(key) && r.includes(String(old)))
                .map((r) => `${path} (removed) ${r.trim()}`),
              ...(addedLine ? [cite(path, addedLine.text, addedLine.line)] : []),
            ],
          ),
        );
      });
    }

    if (!isTestFile(path)) continue;
    for (const { text, line } of added) {
      const weak = expectation(text);
      const py = weak ? null : pyAssert(text);
      const weakened = weak
        ? weakMatchers.test(weak.matcher) &&
          removed.find((r) => {
            const strong = expectation(r);
            return !!strong && strong.subject === weak.subject && strongMatchers.test(strong.matcher);
          })
        : py && !py.strong
          ? removed.find((r) => {
              const strong = pyAssert(r);
              return !!strong && strong.strong && strong.subject === py.subject;
            })
          : undefined;
      if (weakened) {
        out.push(
          detection(
            'assertion_weakened',
            'critical',
            `${where(path, line)}: an assertion was weakened to one that passes for almost any value.`,
            [`${path} (removed) ${weakened.trim()}`, cite(path, text, line)],
          ),
        );
      }
    }
    const was = countAssertions(removed);
    const now = countAssertions(added.map((a) => a.text));
    counts.push({ path, was, now });
  }

  // Across files: a test moved to another file, or a renamed test file, loses no assertion.
  const was = counts.reduce((n, c) => n + c.was, 0);
  const now = counts.reduce((n, c) => n + c.now, 0);
  if (now < was) {
    const fewer = counts.filter((c) => c.now < c.was);
    out.push(
      detection(
        'assertion_count_decreased',
        'warning',
        `${fewer.map((c) => c.path).join(', ')}: ${was - now} fewer assertions in the diff's test files (${was} removed, ${now} added).`,
        fewer.map((c) => `${c.path} -${c.was} +${c.now} expect/assert`),
      ),
    );
  }
  return out;
}
