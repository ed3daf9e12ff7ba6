import { unparsed, type GateItem, type ParsedGateOutput, type TestSummary } from '../../../core/gates';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** A failure's first line is extended with the lines before its stack trace (Expected/Received) up to this size. */
const MAX_MESSAGE = 300;

/** Options of the jest-shaped parsers. */
export interface JestJsonOptions {
  /** Directory test file names are made relative to (the workspace); default: the files' common directory. */
  root?: string;
}

/**
 * Parses `jest --json` output. Totals come from the assertions (never fewer than jest's own counts): passed, failed,
 * skipped (pending, skipped, todo, disabled). `failedNames` are `file › describe › it` with files relative to
 * `options.root` or the files' common directory; `ids` are `file: describe › it` for every assertion. Files are read in
name order (runners list them as their workers finish), so equal runs give equal results.
 *
 * A test file that failed to run (a syntax error, a missing module: status `failed`, a message, no failing assertion)
 * counts as one failed test named `file › Test suite failed to run`, so a broken suite never passes; so do runtime
 * error suites jest counts (`numRuntimeErrorTestSuites`) that no entry shows. `success: false` or `wasInterrupted`
 * with no failed test (coverage threshold, no tests found) is counted in `errors`. Empty output (what jest prints when
 * it finds no test), no JSON object or one cut short fail closed. It never throws.
 */
export function parseJestJson(text: string, options: JestJsonOptions = {}): ParsedGateOutput {
  return parseJestShapedJson('jest', text, options);
}

/**
 * Parses the jest-compatible JSON that `jest --json` and `vitest run --reporter=json` print (see
 * {@link parseJestJson}); `tool` names the runner in reasons and messages. It never throws.
 */
export function parseJestShapedJson(tool: string, text: string, options: JestJsonOptions = {}): ParsedGateOutput {
  try {
    return parseReport(tool, text, options);
  } catch (err) {
    return unparsed(`${tool} parser failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function parseReport(tool: string, text: string, options: JestJsonOptions): ParsedGateOutput {
  if (typeof text !== 'string') return unparsed(`${tool} output is not text`);
  if (text.trim() === '') return unparsed(`${tool} printed nothing: expected its JSON report (no tests found?)`);
  const found = findReport(tool, text);
  if (!found.ok) return unparsed(found.why);
  const report = found.value;
  // Runners list files in the order they finished (parallel workers): sort them, so equal runs give equal results.
  const results = [...(report.testResults as unknown[])].sort((a, b) => compare(nameOf(a), nameOf(b)));

  const files = results.map(nameOf);
  const relative = relativizer(files, options.root);
  const tests: Required<TestSummary> = { total: 0, passed: 0, failed: 0, skipped: 0, failedNames: [], ids: [] };
  const items: GateItem[] = [];
  let brokenSuites = 0;

  for (const [index, result] of results.entries()) {
    if (!isObj(result)) return unparsed(`${tool} JSON has a test result that is not an object`);
    const absFile = files[index];
    const file = relative(absFile);
    const assertions = Array.isArray(result.assertionResults) ? result.assertionResults : [];
    let failedHere = 0;
    for (const a of assertions) {
      if (!isObj(a)) return unparsed(`${tool} JSON test result of ${file} has an assertion that is not an object`);
      const name = testName(a);
      tests.ids.push(`${file}: ${name}`);
      if (a.status === 'passed') {
        tests.passed++;
      } else if (a.status === 'failed') {
        failedHere++;
        tests.failed++;
        tests.failedNames.push(`${file} › ${name}`);
        const failure = Array.isArray(a.failureMessages) ? str(a.failureMessages[0]) : undefined;
        const where = locate(failure ?? '', absFile);
        items.push({
          file,
          ...where,
          severity: 'error',
          message: `${name}: ${summarize(failure ?? '(no failure message)')}`,
        });
      } else {
        // pending, skipped, todo, disabled; an unknown status is no pass either, so it can never make a run green.
        tests.skipped++;
      }
    }
    if (result.status === 'failed' && failedHere === 0) {
      brokenSuites++;
      tests.failed++;
      tests.failedNames.push(`${file} › Test suite failed to run`);
      const message = suiteMessage(str(result.message) ?? str(result.failureMessage) ?? '');
      items.push({ file, ...locate(str(result.message) ?? '', absFile), severity: 'error', message });
    }
  }

  // Jest's own counts are the floor: a report whose entries say less than its totals is not believed.
  const missingFailed = (num(report.numFailedTests) ?? 0) - (tests.failed - brokenSuites);
  const missingRuntime = (num(report.numRuntimeErrorTestSuites) ?? 0) - brokenSuites;
  const unseen = Math.max(missingFailed, 0) + Math.max(missingRuntime, 0);
  if (unseen > 0) {
    tests.failed += unseen;
    items.push({ severity: 'error', message: `${tool} reports ${unseen} failure(s) that no test result shows` });
  }
  tests.passed = Math.max(tests.passed, num(report.numPassedTests) ?? 0);
  tests.total = tests.passed + tests.failed + tests.skipped;

  let errors = 0;
  if (tests.failed === 0 && (report.success === false || report.wasInterrupted === true)) {
    errors = 1;
    const why = report.wasInterrupted === true ? 'the run was interrupted' : 'success: false';
    items.push({
      severity: 'error',
      message: `${tool} reported ${why} although no test failed (no tests found, coverage threshold, open handles?)`,
    });
  }
  return { parsed: true, errors, tests, items };
}

type Found = { ok: true; value: Json } | { ok: false; why: string };

/**
 * The report object in the output. It is printed on one line, so candidates start a line with `{`; each is tried up
 * to the end of its line, then up to the last `}` of the text, so a banner before and noise after are fine.
 */
function findReport(tool: string, text: string): Found {
  let lastError: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (!line.startsWith('{')) continue;
    for (const end of [start + line.length, text.lastIndexOf('}') + 1]) {
      if (end <= start) continue;
      try {
        const value: unknown = JSON.parse(text.slice(start, end));
        if (isObj(value) && Array.isArray(value.testResults) && num(value.numTotalTests) !== undefined) {
          return { ok: true, value };
        }
        lastError = 'it has no numTotalTests/testResults';
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
    }
  }
  if (lastError) return { ok: false, why: `${tool} JSON report does not parse (${lastError}): output truncated?` };
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return { ok: false, why: `no JSON report in ${tool} output (was it run with --json?): ${clip(first.trim())}` };
}

/** Code-unit order: unlike localeCompare, the same on every machine. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const nameOf = (result: unknown): string => (isObj(result) ? (str(result.name) ?? '') : '');

/** `describe › it`, as jest prints a failing test; `fullName` (space-joined) when the parts are missing. */
function testName(a: Json): string {
  const title = str(a.title);
  const ancestors = Array.isArray(a.ancestorTitles) ? a.ancestorTitles.filter((t) => typeof t === 'string') : [];
  if (title !== undefined) return [...ancestors, title].join(' › ');
  return str(a.fullName) ?? '(unnamed test)';
}

/** The failure's first line, with the lines up to its stack trace (Expected/Received...) when they are short. */
function summarize(failure: string): string {
  const lines = failure.replace(ANSI, '').split(/\r?\n/);
  const body: string[] = [];
  for (const line of lines) {
    if (/^\s+at /.test(line)) break;
    if (line.trim() !== '') body.push(line.trim());
  }
  if (body.length === 0) return '(no failure message)';
  const joined = body.join('\n');
  return joined.length <= MAX_MESSAGE ? joined : clip(body[0]);
}

/**
 * What a suite that failed to run says: jest's text after `● Test suite failed to run`, preferring the `XxxError: ...`
 * line (a syntax error's details follow generic advice); vitest's message is one line already.
 */
function suiteMessage(message: string): string {
  const lines = message
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('●'));
  const error = lines.find((l) => /^[A-Z]\w*Error: /.test(l));
  const first = error ?? lines[0];
  return `Test suite failed to run: ${first ? clip(first) : '(no message)'}`;
}

/**
 * Line and column of the first `path:line[:column]` in a message or stack trace that names the test file (by its
 * absolute path or a relative tail of it), skipping node_modules frames.
 */
function locate(text: string, absFile: string): { line?: number; column?: number } {
  if (!absFile) return {};
  const normalized = absFile.replace(/\\/g, '/');
  for (const m of text.replace(ANSI, '').matchAll(/(?:file:\/\/)?([^\s()'"]+?):(\d+)(?::(\d+))?(?=$|[\s)'"])/gm)) {
    const p = m[1].replace(/\\/g, '/').replace(/^\.\//, '');
    if (p.includes('node_modules') || p === '') continue;
    if (normalized === p || normalized.endsWith(`/${p}`)) {
      return { line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
    }
  }
  return {};
}

/** Makes test file names relative to `root` when under it, else to the files' common directory. */
function relativizer(files: string[], root?: string): (file: string) => string {
  const strip = (base: string) => (file: string) =>
    base && file.startsWith(base) && file.length > base.length ? file.slice(base.length) : file;
  if (root) {
    const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
    const base = root.endsWith('/') || root.endsWith('\\') ? root : root + sep;
    if (files.every((f) => f === '' || f.startsWith(base))) return strip(base);
  }
  return strip(commonDir(files.filter((f) => f !== '')));
}

/** The longest directory prefix (with its trailing separator) the paths share; '' when there is none. */
function commonDir(paths: string[]): string {
  if (paths.length === 0) return '';
  let prefix = parentOf(paths[0]);
  for (const p of paths.slice(1)) {
    while (prefix && !p.startsWith(prefix)) prefix = parentOf(prefix);
  }
  // A bare root (`/`) is no common directory worth stripping.
  return prefix.length > 1 ? prefix : '';
}

/** `/a/b/` of `/a/b/c` and of `/a/b/c/`: everything up to the separator before the last segment. */
function parentOf(path: string): string {
  const end = /[\\/]$/.test(path) ? path.length - 2 : path.length - 1;
  // lastIndexOf treats a negative start as 0: without this guard the parent of `/` would be `/` again.
  if (end < 0) return '';
  return path.slice(0, Math.max(path.lastIndexOf('/', end), path.lastIndexOf('\\', end)) + 1);
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
