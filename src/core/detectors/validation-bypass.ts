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

interface LineRule {
  type: string;
  severity: Severity;
  /** Why this line is a bypass, for the agent and the human. */
  why: string;
  applies: (path: string) => boolean;
  matches: (line: string) => boolean;
}

const anyFile = (): boolean => true;
const re =
  (r: RegExp) =>
  (line: string): boolean =>
    r.test(line);

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
      /\b(?:it|test|describe|context|suite|specify)(?:\.\w+)*\.(?:skip|only|todo)\b|(?<![.\w])[xf](?:it|describe|test|context)\s*\(|@pytest\.mark\.skip|\bpytest\.skip\s*\(|@unittest\.skip|\bt\.Skip(?:f|Now)?\s*\(/,
    ),
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

/** Python `assert subject <op> ...` → subject and whether it compares to something. */
function pyAssert(line: string): { subject: string; strong: boolean } | null {
  const m = /^\s*assert\s+(.+?)\s*(==|!=|<=|>=|<|>|\bis not None\b|\bis\b|\bin\b|,|$)/.exec(line);
  if (!m) return null;
  return { subject: m[1].replace(/\s+/g, ''), strong: !!m[2] && m[2] !== ',' && m[2] !== 'is not None' };
}

const strongMatchers =
  /^(?:not\.)?(?:toBe|toEqual|toStrictEqual|toMatchObject|toHaveLength|toContain|toContainEqual|toMatch|toThrow|toHaveBeenCalledWith|toHaveBeenCalledTimes|toHaveProperty|toBeCloseTo|toBeGreaterThan|toBeLessThan)$/;
const weakMatchers =
  /^(?:toBeDefined|toBeTruthy|not\.toBeNull|not\.toBeUndefined|not\.toBeFalsy|toBeFalsy|not\.toThrow)$/;

const assertionPattern = /\bexpect(?:\.\w+)?\s*\(|\bassert\w*\b|\bt\.(?:Error|Fatal)f?\s*\(/g;
const countAssertions = (lines: string[]): number =>
  lines.filter((l) => !isCommentLine(l)).reduce((n, l) => n + (l.match(assertionPattern)?.length ?? 0), 0);

/** Removes lines that were only moved: each trimmed line removed and added in the same file cancels out once. */
function withoutMoves(file: FileDiff): { added: { text: string; line?: number }[]; removed: string[] } {
  const removedCount = new Map<string, number>();
  for (const r of file.removed) removedCount.set(r.trim(), (removedCount.get(r.trim()) ?? 0) + 1);
  const cancelled = new Map<string, number>();
  const added: { text: string; line?: number }[] = [];
  file.added.forEach((text, i) => {
    const key = text.trim();
    const left = removedCount.get(key) ?? 0;
    if (left > 0) {
      removedCount.set(key, left - 1);
      cancelled.set(key, (cancelled.get(key) ?? 0) + 1);
    } else added.push({ text, line: file.addedLineNumbers?.[i] });
  });
  const removed = file.removed.filter((r) => {
    const n = cancelled.get(r.trim()) ?? 0;
    if (n > 0) cancelled.set(r.trim(), n - 1);
    return n <= 0;
  });
  return { added, removed };
}

const where = (path: string, line?: number): string => (line === undefined ? path : `${path}:${line}`);
const cite = (path: string, text: string, line?: number): string => `${where(path, line)} ${text.trim()}`;

/**
 * Flags validation bypasses in a diff. Only ADDED lines count (removing a `.skip` is good news), and a line that was
 * only moved within a file (removed and added identically) is not a finding. Besides the single-line rules, per file:
 * a coverage threshold whose number decreased (same key, removed vs added line); in test files, an assertion on the
 * same subject replaced by a weaker one (`toBe(x)` → `toBeDefined()`), and a drop in the count of `expect(`/`assert`
 * (warning only: consolidating assertions is legitimate, and deleted tests are the test inventory's BLOCK).
 * One detection per finding, in diff order.
 */
export function detectValidationBypass(diff: FileDiff[]): Detection[] {
  const out: Detection[] = [];
  for (const file of diff) {
    const { path } = file;
    const { added, removed } = withoutMoves(file);
    for (const { text, line } of added) {
      for (const rule of lineRules) {
        if (rule.applies(path) && rule.matches(text)) {
          out.push(detection(rule.type, rule.severity, `${where(path, line)}: ${rule.why}.`, [cite(path, text, line)]));
          break;
        }
      }
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
    if (now < was) {
      out.push(
        detection(
          'assertion_count_decreased',
          'warning',
          `${path}: ${was - now} fewer assertions (${was} removed, ${now} added).`,
          [`${path} -${was} +${now} expect/assert`],
        ),
      );
    }
  }
  return out;
}
