import { unparsed, type GateItem, type ParsedGateOutput } from '../../../core/gates';

/** One line of `go test -json` (cmd/test2json's TestEvent, plus the build events of Go 1.24+). */
interface GoTestEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
  Elapsed?: number;
  /** On a package's `fail` when its test binary did not build (Go 1.24+). */
  FailedBuild?: string;
  /** On `build-output` / `build-fail` events (Go 1.24+). */
  ImportPath?: string;
}

interface TestState {
  result?: 'pass' | 'fail' | 'skip';
  output: string[];
}

interface PackageState {
  tests: Map<string, TestState>;
  result?: 'pass' | 'fail' | 'skip';
  output: string[];
  failedBuild: boolean;
}

/** Most output lines kept in one failing test's item. */
const MAX_OUTPUT_LINES = 20;

/** Lines of `go test -v` framing, not what a test said. */
const FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\s|--- (?:PASS|FAIL|SKIP):\s)/;

/** A compiler or vet message: `file.go:12:5: message` (column optional). */
const COMPILER = /^\s*(\S+\.go):(\d+)(?::(\d+))?: (.+)$/;

/** Where a failing test's output points: a `x_test.go:12:` line it logged, else the first `.go:N` stack frame. */
function locate(lines: string[]): Pick<GateItem, 'file' | 'line'> {
  for (const re of [/(\S+_test\.go):(\d+)/, /(\S+\.go):(\d+)/]) {
    for (const l of lines) {
      const m = re.exec(l);
      if (m && !/\/go\/src\/(?:testing|runtime)\//.test(m[1])) return { file: m[1], line: Number(m[2]) };
    }
  }
  return {};
}

/**
 * Reads `go test -json ./...`: one JSON event per line (`run`/`pass`/`fail`/`skip`/`output`, with Package, Test and
 * Elapsed), plus the `build-output`/`build-fail` events of Go 1.24+. Lines that are not JSON (stderr merged in, or
 * the compiler errors that Go before 1.24, or `GODEBUG=gotestjsonbuildtext=1`, prints as text) are tolerated; compiler
 * messages among them become items.
 *
 * Counting: only leaf tests count. A test with subtests (`TestA` with `TestA/sub`) is not counted itself, so a table
 * test with three cases is three tests, and a failing subtest is not counted twice through its parent. A parent that
 * failed while none of its subtests did (a `t.Error` after `t.Run`) is counted as one failed test, so no failure
 * disappears. A leaf test with no result when its package ended (a crash, a timeout) counts as failed. A package that
 * failed with no failing test (`FAIL pkg [build failed]`, `[setup failed]`, a `TestMain` exit or a panic outside any
 * test) counts as one failed test named `pkg [build failed]` (or `[setup failed]`, `[failed]`), so a build failure
 * never passes as "no tests ran". Packages without test files are ignored.
 *
 * failedNames and ids are `pkg.TestName` (`example.com/m/strs.TestReverse/unicode`); ids list every counted test.
 * Items: one per failed test with what it logged (file:line from its `x_test.go:12:` lines), and one per compiler
 * error. Fails closed: no events at all, a cut-off JSON line, or a package that never reached its final
 * pass/fail/skip event (truncated output) gives `parsed: false`. Never throws.
 */
export function parseGoTestJson(text: string): ParsedGateOutput {
  if (typeof text !== 'string' || !text.trim()) return unparsed('empty go test -json output');
  const packages = new Map<string, PackageState>();
  const pkg = (name: string): PackageState => {
    let p = packages.get(name);
    if (!p) packages.set(name, (p = { tests: new Map(), output: [], failedBuild: false }));
    return p;
  };
  // Compiler errors by package (`''` when the package is unknown), from build-output events or text lines.
  const buildErrors = new Map<string, GateItem[]>();
  let textPackage = '';
  const addCompilerLine = (line: string, pkgName: string): void => {
    const m = COMPILER.exec(line);
    if (!m) return;
    const list = buildErrors.get(pkgName) ?? [];
    list.push({
      file: m[1],
      line: Number(m[2]),
      ...(m[3] ? { column: Number(m[3]) } : {}),
      code: 'build',
      severity: 'error',
      message: m[4].trim(),
    });
    buildErrors.set(pkgName, list);
  };
  let events = 0;
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    let ev: GoTestEvent | undefined;
    if (line.startsWith('{')) {
      try {
        const v: unknown = JSON.parse(line);
        if (v && typeof v === 'object' && !Array.isArray(v)) ev = v as GoTestEvent;
      } catch {
        if (index === lines.length - 1) return unparsed('truncated go test -json output: the last line is cut off');
        return unparsed(`go test -json: malformed event line: ${line.slice(0, 80)}`);
      }
    }
    if (!ev) {
      // Text mode (Go < 1.24, or GODEBUG=gotestjsonbuildtext=1): `# pkg`, compiler lines, `FAIL pkg [build failed]`.
      const header = /^# (\S+)/.exec(line);
      const f = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/.exec(line);
      if (header) textPackage = header[1];
      else if (f) {
        const p = pkg(f[1]);
        p.failedBuild = true;
        p.output.push(line);
        // Go < 1.24 prints this line instead of any JSON event for the package.
        p.result ??= 'fail';
      } else addCompilerLine(raw, textPackage);
      continue;
    }
    if (typeof ev.Action !== 'string') continue;
    events++;
    if (ev.Action === 'build-output') {
      if (typeof ev.Output === 'string')
        addCompilerLine(ev.Output.replace(/\n$/, ''), (ev.ImportPath ?? '').split(' ')[0]);
      continue;
    }
    if (ev.Action === 'build-fail' || typeof ev.Package !== 'string') continue;
    const p = pkg(ev.Package);
    const testName = typeof ev.Test === 'string' && ev.Test ? ev.Test : undefined;
    if (!testName) {
      if (ev.Action === 'output' && typeof ev.Output === 'string') {
        p.output.push(ev.Output.replace(/\n$/, ''));
        if (/\[(?:build|setup) failed\]/.test(ev.Output)) p.failedBuild = true;
      } else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') {
        p.result = ev.Action;
        if (ev.FailedBuild) p.failedBuild = true;
      }
      continue;
    }
    let t = p.tests.get(testName);
    if (!t) p.tests.set(testName, (t = { output: [] }));
    if (ev.Action === 'output' && typeof ev.Output === 'string') t.output.push(ev.Output.replace(/\n$/, ''));
    else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') t.result = ev.Action;
  }
  if (!events) return unparsed('no go test -json events found: the output is not from `go test -json`');
  const unfinished = [...packages.entries()].filter(([, p]) => !p.result);
  if (unfinished.length)
    return unparsed(`truncated go test -json output: package ${unfinished[0][0]} has no final pass/fail event`);

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failedNames: string[] = [];
  const ids: string[] = [];
  const items: GateItem[] = [];
  const failTest = (name: string, output: string[]): void => {
    failed++;
    failedNames.push(name);
    const said = output.filter((l) => l.trim() && !FRAMING.test(l)).map((l) => l.trim());
    const shown = said.slice(0, MAX_OUTPUT_LINES);
    const more = said.length > shown.length ? `\n… ${said.length - shown.length} more lines` : '';
    items.push({
      ...locate(said),
      code: 'FAIL',
      severity: 'error',
      message: `${name}${shown.length ? `: ${shown.join('\n')}${more}` : ': failed'}`,
    });
  };
  for (const [pkgName, p] of packages) {
    // Every name that has subtests, and every name with a subtest that did not pass or skip: one pass over the
    // prefixes of each name (`A/b/c` → `A`, `A/b`) rather than comparing every pair of tests.
    const parents = new Set<string>();
    const failedBelow = new Set<string>();
    for (const [name, t] of p.tests) {
      const ok = t.result === 'pass' || t.result === 'skip';
      for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
        parents.add(name.slice(0, i));
        if (!ok) failedBelow.add(name.slice(0, i));
      }
    }
    const failedBefore = failed;
    for (const [name, t] of p.tests) {
      const full = `${pkgName}.${name}`;
      if (parents.has(name)) {
        if (t.result === 'fail' && !failedBelow.has(name)) {
          ids.push(full);
          failTest(full, t.output);
        }
        continue;
      }
      ids.push(full);
      if (t.result === 'pass') passed++;
      else if (t.result === 'skip') skipped++;
      else failTest(full, t.output);
    }
    if (p.result === 'fail' && failed === failedBefore) {
      const why = !p.failedBuild
        ? 'failed'
        : p.output.some((l) => l.includes('[setup failed]'))
          ? 'setup failed'
          : 'build failed';
      const full = `${pkgName} [${why}]`;
      ids.push(full);
      failed++;
      failedNames.push(full);
      const compiler = buildErrors.get(pkgName) ?? [];
      buildErrors.delete(pkgName);
      const own = p.output.filter((l) => l.trim() && !/^(?:FAIL|ok)\b/.test(l.trim()));
      if (compiler.length) items.push(...compiler);
      else
        items.push({
          ...locate(own),
          code: 'FAIL',
          severity: 'error',
          message: `${full}${own.length ? `: ${own.slice(0, MAX_OUTPUT_LINES).join('\n')}` : ''}`,
        });
    }
  }
  // Compiler errors not tied to a failed package above (unknown package, or text merged from stderr).
  for (const list of buildErrors.values()) items.push(...list);
  return {
    parsed: true,
    errors: failed,
    tests: { total: passed + failed + skipped, passed, failed, skipped, failedNames, ids },
    items,
  };
}
