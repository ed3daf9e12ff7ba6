/**
 * The lines of a failed check's output a human needs first: the first errors and assertions, found with each
 * runner's own markers (jest, vitest, pytest, node's assert and test runner, go test, tsc), not the output's tail,
 * which for node's assert is a property dump and the `Node.js v20` footer. Pure: the activity reads the logs and
 * gives their text here.
 */
import { reportText } from './report-text';

/** The runners whose output {@link excerptFailure} recognises; `unknown` falls back to the first error-like line. */
export const FailureRunners = [
  'jest',
  'vitest',
  'pytest',
  'node-test',
  'node-assert',
  'go-test',
  'tsc',
  'unknown',
] as const;
/** A runner {@link excerptFailure} recognises. */
export type FailureRunner = (typeof FailureRunners)[number];

/** What {@link excerptFailure} found: the runner, the one line that says what failed, and the lines around it. */
export interface FailureExcerpt {
  runner: FailureRunner;
  /** The first error or assertion line (trimmed, one line): `AssertionError [ERR_ASSERTION]: sum(1,5) should be 6`. */
  headline: string;
  /** The excerpt: the first failures' lines, `⋮` where lines were left out. */
  excerpt: string;
  /** The excerpt was cut to its limits. */
  truncated?: boolean;
}

/** Limits of an excerpt (it goes into workflow history): lines, characters per line, characters in all. */
export interface ExcerptLimits {
  maxLines: number;
  maxLineChars: number;
  maxChars: number;
}

/** The default limits: 40 lines of at most 240 characters, 3,000 characters in all. */
export const EXCERPT_LIMITS: ExcerptLimits = { maxLines: 40, maxLineChars: 240, maxChars: 3000 };

/** A runner's reading of the output: the line ranges to show ([start, end), in order) and the headline's index. */
interface Reading {
  ranges: [number, number][];
  /** The lines that make the headline, joined with ` / ` (the failure's name and its message). */
  headline: number[];
  /** The run's summary line(s), kept at the end even when the blocks are cut. */
  summary?: [number, number][];
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const GAP = '⋮';

/** Removes terminal colours and carriage returns (progress lines keep their last state). */
export function plainOutput(text: string): string {
  return text
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, '').split('\r').pop() ?? '')
    .join('\n');
}

/** Index of the first line at or after `from` matching `re`, or -1. */
function find(lines: string[], re: RegExp, from = 0, to = lines.length): number {
  for (let i = Math.max(0, from); i < Math.min(to, lines.length); i++) if (re.test(lines[i])) return i;
  return -1;
}

/** Every index of lines matching `re`. */
function findAll(lines: string[], re: RegExp): number[] {
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (re.test(l)) out.push(i);
  });
  return out;
}

/** The end of a block starting at `start`: the next line matching `stop`, else `start + max`, else the end. */
function blockEnd(lines: string[], start: number, stop: RegExp, max: number): number {
  const next = find(lines, stop, start + 1, start + 1 + max);
  return next < 0 ? Math.min(lines.length, start + 1 + max) : next;
}

/** The first non-blank line at or after `i` (within `max` lines), or `i`. */
function firstText(lines: string[], i: number, max = 6): number {
  const j = find(lines, /\S/, i, i + max);
  return j < 0 ? i : j;
}

/** The summary line of a run, when there is one (`Tests: 2 failed, 1 passed, 3 total`). */
function summaryRange(lines: string[], re: RegExp): [number, number][] {
  const i = find(lines, re);
  return i < 0 ? [] : [[i, i + 1]];
}

/** jest: each `● suite › test` block (message, diff, code frame, first stack line), then the `Tests:` line. */
function readJest(lines: string[]): Reading | undefined {
  const starts = findAll(lines, /^\s*● (?!Console\b)/);
  if (!starts.length) return undefined;
  const ranges = starts.slice(0, 3).map((s): [number, number] => {
    const end = blockEnd(lines, s, /^\s*● |^(PASS|FAIL) |^Test Suites:/, 30);
    const at = find(lines, /^\s+at /, s, end);
    return [s, at < 0 ? end : at + 1];
  });
  const end = ranges[0][1];
  const expected = find(lines, /^\s+Expected( value)?:|^\s+- Expected\b/, starts[0], end);
  const received = find(lines, /^\s+Received( value)?:|^\s+\+ Received\b/, starts[0], end);
  const message = expected >= 0 ? [expected, received] : [firstText(lines, starts[0] + 1)];
  return { ranges, summary: summaryRange(lines, /^Tests:\s/), headline: [starts[0], ...message] };
}

/** vitest: each ` FAIL  file > test` block of the "Failed Tests" section, then the `Tests` line. */
function readVitest(lines: string[]): Reading | undefined {
  const section = find(lines, /⎯ Failed Tests \d+ ⎯|⎯ Failed Suites \d+ ⎯/);
  const starts = findAll(lines, /^\s*FAIL\s+\S/).filter((i) => i > section);
  if (section < 0 || !starts.length) return undefined;
  const ranges = starts
    .slice(0, 3)
    .map((s): [number, number] => [s, blockEnd(lines, s, /^\s*FAIL\s+\S|^⎯+|⎯\[\d+\/\d+\]⎯/, 25)]);
  return {
    ranges,
    summary: summaryRange(lines, /^\s+Tests\s+\d/),
    headline: [starts[0], firstText(lines, starts[0] + 1)],
  };
}

/** pytest: each `___ test ___` section of FAILURES/ERRORS, then the short summary's first lines. */
function readPytest(lines: string[]): Reading | undefined {
  const section = find(lines, /^=+ (FAILURES|ERRORS) =+$/);
  if (section < 0) return undefined;
  const starts = findAll(lines, /^_{3,} .+ _{3,}$/).filter((i) => i > section);
  const ranges = (starts.length ? starts : [section]).slice(0, 3).map((s): [number, number] => {
    return [s, blockEnd(lines, s, /^_{3,} .+ _{3,}$|^=+ .* =+$/, 30)];
  });
  const summary = find(lines, /^=+ short test summary info =+$/);
  const short: [number, number][] = summary >= 0 ? [[summary + 1, blockEnd(lines, summary, /^(=|!)+ /, 5)]] : [];
  // The counts: `=== 1 failed, 2 passed in 0.02s ===`, or `1 failed in 0.02s` under -q.
  const counts = findAll(lines, /\b\d+ (failed|errors?)\b.* in [\d.]+s\b/).pop() ?? -1;
  if (counts > section) short.push([counts, counts + 1]);
  const e = find(lines, /^E\s+\S/, section);
  const next = e >= 0 && /^E\s+\S/.test(lines[e + 1] ?? '') ? [e + 1] : [];
  return { ranges, summary: short, headline: e >= 0 ? [e, ...next] : [firstText(lines, section + 1)] };
}

/** node's test runner (TAP or spec): each `not ok` block's name, location and error, then the `# fail` count. */
function readNodeTest(lines: string[]): Reading | undefined {
  const starts = findAll(lines, /^\s*not ok \d+ - /);
  if (!starts.length) return undefined;
  const ranges = starts.slice(0, 3).map((s): [number, number] => {
    const stack = find(lines, /^\s+(code|stack): /, s, s + 40);
    return [s, stack < 0 ? blockEnd(lines, s, /^\s*(not )?ok \d+ - |^\s+\.\.\.$/, 25) : stack];
  });
  const error = find(lines, /^\s+error: /, starts[0]);
  const message = error >= 0 ? firstText(lines, error + 1) : starts[0];
  return { ranges, summary: summaryRange(lines, /^# fail \d+/), headline: [starts[0], message] };
}

/**
 * node's assert (an uncaught AssertionError or any uncaught Error): the error line and its message up to the stack,
 * and the first stack line outside node's internals (where in the test it failed). The property dump and the
 * `Node.js v20` footer after it are left out.
 */
function readNodeAssert(lines: string[]): Reading | undefined {
  const footer = find(lines, /^Node\.js v\d+/);
  const error = find(lines, /^(\w*Error|AssertionError)( \[\w+\])?: |^\w*Error$|^\w*Error \[\w+\]$/);
  if (error < 0 || (footer < 0 && !/ERR_ASSERTION/.test(lines[error]))) return undefined;
  const stack = find(lines, /^\s+at /, error);
  const end = stack < 0 ? blockEnd(lines, error, /^\{$|^Node\.js v\d+/, 15) : stack;
  const ranges: [number, number][] = [];
  // The thrower's source line (`node:assert:90 / throw ... / ^`) says nothing: the error line comes first.
  ranges.push([error, end]);
  const user = stack < 0 ? -1 : find(lines, /^\s+at (?!.*\(?node:)/, stack, stack + 30);
  if (user >= 0) ranges.push([user, user + 1]);
  // `AssertionError [ERR_ASSERTION]: sum(1,5) should be 6` and, under it, `5 !== 6`.
  const detail = find(lines, /\S/, error + 1, end);
  return { ranges, headline: detail >= 0 && detail !== error ? [error, detail] : [error] };
}

/** go test: build errors, each `--- FAIL` with its log lines (before it in -v output, after it otherwise). */
function readGoTest(lines: string[]): Reading | undefined {
  const build = find(lines, /^# \S+/);
  if (build >= 0 && find(lines, /\[build failed\]|\[setup failed\]/) >= 0)
    return { ranges: [[build, blockEnd(lines, build, /^FAIL\s|^ok\s/, 20)]], headline: [firstText(lines, build + 1)] };
  const fails = findAll(lines, /^\s*--- FAIL: /);
  const panic = find(lines, /^panic: /);
  if (!fails.length && panic < 0) return undefined;
  const ranges: [number, number][] = [];
  if (panic >= 0) ranges.push([panic, blockEnd(lines, panic, /^(FAIL|ok)\s/, 12)]);
  for (const f of fails.slice(0, 4)) {
    const run = find(lines.slice(0, f).reverse(), /^=== (RUN|CONT|PAUSE)/);
    const from = run < 0 ? f : f - run;
    ranges.push([from, blockEnd(lines, f, /^\s*(---|===) |^(FAIL|ok|PASS)\b/, 15)]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  // The first log line of a failing test (skipped tests log too), else a panic.
  const logs = ranges.map(([a, z]) => find(lines, /^\s+\S+\.go:\d+: |^panic: /, a, z)).filter((i) => i >= 0);
  const log = logs.length ? Math.min(...logs) : -1;
  return { ranges, summary: summaryRange(lines, /^FAIL\t/), headline: [log >= 0 ? log : fails[0]] };
}

/** tsc: the first errors (with their code frames under --pretty), then the `Found N errors` line. */
function readTsc(lines: string[]): Reading | undefined {
  const errors = findAll(lines, /\(\d+,\d+\): error TS\d+|:\d+:\d+ - error TS\d+/);
  if (!errors.length) return undefined;
  const pretty = /:\d+:\d+ - error TS/.test(lines[errors[0]]);
  const ranges = errors
    .slice(0, 6)
    .map((e): [number, number] => [e, pretty ? blockEnd(lines, e, /:\d+:\d+ - error TS|^Found \d+ error/, 6) : e + 1]);
  return { ranges, summary: summaryRange(lines, /^Found \d+ errors?/), headline: [errors[0]] };
}

/**
 * Any other output: the first line that reads as an error message (`FAIL ...`, `SomeError: ...`, a traceback, a
 * cross mark, "expected"), else the first that mentions a failure (a count like `2 tests, 1 failed`), with a few
 * lines before and after.
 */
function readUnknown(lines: string[]): Reading {
  const noise = /^npm (ERR!|error)|\b0 (failed|errors?)\b/i;
  const strong =
    /^\s*(FAIL|FAILED|ERROR)\b|\b\w*(Error|Exception)\b:|\bassert(ion)?\b|^Traceback|^panic:|✗|✕|×|\bexpected\b/i;
  const weak = /\b(error|errors|fail|failed|failure|failures|exception|panic)\b/i;
  const first = (re: RegExp): number => lines.findIndex((l) => re.test(l) && !noise.test(l));
  const at = first(strong) >= 0 ? first(strong) : first(weak);
  if (at < 0) {
    const text = lines.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
    const last = text.length ? text[text.length - 1] : 0;
    return { ranges: [[Math.max(0, last - 19), last + 1]], headline: [last] };
  }
  return { ranges: [[Math.max(0, at - 2), Math.min(lines.length, at + 15)]], headline: [at] };
}

/** Which runner wrote the output, from the markers only it prints. */
export function detectRunner(text: string): FailureRunner {
  if (/⎯ Failed (Tests|Suites) \d+ ⎯|^\s*RUN\s+v\d+\.\d+/m.test(text)) return 'vitest';
  if (/^(FAIL|PASS) \S/m.test(text) && /^\s*● /m.test(text)) return 'jest';
  if (/^=+ (FAILURES|ERRORS) =+$/m.test(text) || /^=+ test session starts =+$/m.test(text)) return 'pytest';
  if (/^\s*--- FAIL: |^FAIL\t\S|\[build failed\]$/m.test(text)) return 'go-test';
  if (/\(\d+,\d+\): error TS\d+|:\d+:\d+ - error TS\d+/.test(text)) return 'tsc';
  if (/^\s*not ok \d+ - /m.test(text)) return 'node-test';
  if (/ERR_ASSERTION|^Node\.js v\d+/m.test(text)) return 'node-assert';
  return 'unknown';
}

const READERS: Record<Exclude<FailureRunner, 'unknown'>, (lines: string[]) => Reading | undefined> = {
  jest: readJest,
  vitest: readVitest,
  pytest: readPytest,
  'node-test': readNodeTest,
  'node-assert': readNodeAssert,
  'go-test': readGoTest,
  tsc: readTsc,
};

/** The lines of `ranges` (merged when they touch or overlap), `⋮` before each gap, trailing blanks dropped. */
function linesOf(lines: string[], ranges: [number, number][], maxLineChars: number): string[] {
  const merged: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const out: string[] = [];
  merged.forEach(([a, b], k) => {
    if (k > 0 || a > 0) out.push(GAP);
    for (let i = a; i < b; i++) out.push(clipLine(lines[i], maxLineChars));
  });
  // A block's trailing blank lines say nothing.
  return out.filter((l, i) => l.trim() || (out[i + 1] !== undefined && out[i + 1] !== GAP));
}

/** The excerpt within the limits: the blocks cut first, the summary kept at the end. */
function render(lines: string[], r: Reading, limits: ExcerptLimits): Pick<FailureExcerpt, 'excerpt' | 'truncated'> {
  const sums = r.summary ?? [];
  const summary = sums.length ? linesOf(lines, sums, limits.maxLineChars) : [];
  const tail = summary.length ? (summary[0] === GAP ? summary : [GAP, ...summary]) : [];
  const inBlocks = r.ranges.filter(([a]) => !sums.some(([x, y]) => a >= x && a < y));
  let body = linesOf(lines, inBlocks, limits.maxLineChars);
  let truncated = false;
  const room = Math.max(1, limits.maxLines - tail.length);
  if (body.length > room) {
    body = body.slice(0, room);
    truncated = true;
  }
  if (tail.length && body[body.length - 1] === GAP) body.pop();
  let excerpt = [...body, ...tail].join('\n');
  if (excerpt.length > limits.maxChars) {
    excerpt = `${excerpt.slice(0, limits.maxChars - 2)}\n${GAP}`;
    truncated = true;
  }
  return truncated ? { excerpt, truncated } : { excerpt };
}

const clipLine = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The excerpt of a failed check's output around its first errors and assertions: the runner is recognised from its
 * markers, its failure blocks are kept (at most three), its summary line added, and everything else left out. Output
 * of a runner it does not know gets the first error-like line with its neighbours, or the last lines.
 */
export function excerptFailure(output: string, limits: ExcerptLimits = EXCERPT_LIMITS): FailureExcerpt {
  const all = plainOutput(output).replace(/\s+$/, '').split('\n');
  // A gate's log is often a report (jest --json, go test -json, JUnit XML): its failures read like the console's.
  const report = reportText(all);
  const lines = report ? plainOutput(report.text).split('\n') : all;
  const detected = report ? report.runner : detectRunner(lines.join('\n'));
  const reader = report
    ? report.runner === 'go-test'
      ? readGoTest
      : readJest
    : detected === 'unknown'
      ? undefined
      : READERS[detected];
  const found = reader?.(lines);
  const runner: FailureRunner = found || report ? detected : 'unknown';
  // A report without failures (a threshold failed the gate): what came before it (the gate's verdict), then counts.
  const counts =
    report?.runner === 'unknown' ? { ranges: [[0, lines.length]] as [number, number][], headline: [0] } : undefined;
  const reading = found ?? counts ?? readUnknown(lines);
  const headline = clipLine(
    reading.headline
      .filter((i) => i >= 0)
      .map((i) => (lines[i] ?? '').trim())
      .filter(Boolean)
      .join(' / '),
    limits.maxLineChars,
  );
  return { runner, headline, ...render(lines, reading, limits) };
}
